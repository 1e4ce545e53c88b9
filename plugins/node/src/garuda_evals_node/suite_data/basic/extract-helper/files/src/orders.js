let nextId = 1;

/** A new order line; quantity and unit price (in cents) must be positive integers. */
export function createOrder(sku, quantity, unitCents) {
  if (typeof quantity !== 'number' || !Number.isInteger(quantity)) {
    throw new TypeError(`quantity must be an integer, got ${quantity}`);
  }
  if (quantity <= 0) {
    throw new RangeError(`quantity must be positive, got ${quantity}`);
  }
  if (typeof unitCents !== 'number' || !Number.isInteger(unitCents)) {
    throw new TypeError(`unitCents must be an integer, got ${unitCents}`);
  }
  if (unitCents <= 0) {
    throw new RangeError(`unitCents must be positive, got ${unitCents}`);
  }
  return { id: nextId++, sku, quantity, unitCents, totalCents: quantity * unitCents };
}
