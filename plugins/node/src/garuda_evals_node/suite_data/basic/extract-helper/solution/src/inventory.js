import { requirePositiveInt } from './validate.js';

/** Stock levels per SKU. */
export class Inventory {
  #stock = new Map();

  level(sku) {
    return this.#stock.get(sku) ?? 0;
  }

  restock(sku, quantity) {
    requirePositiveInt(quantity, 'quantity');
    this.#stock.set(sku, this.level(sku) + quantity);
    return this.level(sku);
  }

  take(sku, quantity) {
    requirePositiveInt(quantity, 'quantity');
    if (quantity > this.level(sku)) {
      throw new RangeError(`only ${this.level(sku)} of ${sku} in stock`);
    }
    this.#stock.set(sku, this.level(sku) - quantity);
    return this.level(sku);
  }
}
