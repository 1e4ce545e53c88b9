import { requirePositiveInt } from './validate.js';

let nextId = 1;

/** A new order line; quantity and unit price (in cents) must be positive integers. */
export function createOrder(sku, quantity, unitCents) {
  requirePositiveInt(quantity, 'quantity');
  requirePositiveInt(unitCents, 'unitCents');
  return { id: nextId++, sku, quantity, unitCents, totalCents: quantity * unitCents };
}
