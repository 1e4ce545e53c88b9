/** Stock levels per SKU. */
export class Inventory {
  #stock = new Map();

  level(sku) {
    return this.#stock.get(sku) ?? 0;
  }

  restock(sku, quantity) {
    if (typeof quantity !== 'number' || !Number.isInteger(quantity)) {
      throw new TypeError(`quantity must be an integer, got ${quantity}`);
    }
    if (quantity <= 0) {
      throw new RangeError(`quantity must be positive, got ${quantity}`);
    }
    this.#stock.set(sku, this.level(sku) + quantity);
    return this.level(sku);
  }

  take(sku, quantity) {
    if (typeof quantity !== 'number' || !Number.isInteger(quantity)) {
      throw new TypeError(`quantity must be an integer, got ${quantity}`);
    }
    if (quantity <= 0) {
      throw new RangeError(`quantity must be positive, got ${quantity}`);
    }
    if (quantity > this.level(sku)) {
      throw new RangeError(`only ${this.level(sku)} of ${sku} in stock`);
    }
    this.#stock.set(sku, this.level(sku) - quantity);
    return this.level(sku);
  }
}
