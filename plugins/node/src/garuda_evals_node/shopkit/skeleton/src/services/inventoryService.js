import { SETTINGS } from '../config/settings.js';
import { ConflictError } from '../util/errors.js';
import { requirePositiveInt } from '../util/validate.js';

/**
 * Stock per product. Placing an order reserves stock; paying commits it (the units
 * leave the shelf); cancelling releases it.
 */
export class InventoryService {
  #levels = new Map();
  #reserved = new Map();

  constructor({ bus }, { products }, { lowStockThreshold = SETTINGS.lowStockThreshold } = {}) {
    this.bus = bus;
    this.products = products;
    this.lowStockThreshold = lowStockThreshold;
  }

  level(productId) {
    this.products.get(productId);
    return this.#levels.get(productId) ?? 0;
  }

  available(productId) {
    return this.level(productId) - (this.#reserved.get(productId) ?? 0);
  }

  restock(productId, quantity) {
    requirePositiveInt(quantity, 'quantity');
    this.#levels.set(productId, this.level(productId) + quantity);
    return this.level(productId);
  }

  reserve(productId, quantity) {
    requirePositiveInt(quantity, 'quantity');
    const available = this.available(productId);
    if (available < quantity) {
      throw new ConflictError(`only ${available} of ${productId} available`, 'out-of-stock');
    }
    this.#reserved.set(productId, (this.#reserved.get(productId) ?? 0) + quantity);
  }

  release(productId, quantity) {
    const reserved = this.#reserved.get(productId) ?? 0;
    this.#reserved.set(productId, Math.max(0, reserved - quantity));
  }

  /** Takes reserved units off the shelf; emits stock.low when the level falls to the threshold. */
  commit(productId, quantity) {
    this.release(productId, quantity);
    const level = this.level(productId) - quantity;
    this.#levels.set(productId, level);
    if (level <= this.lowStockThreshold) this.bus.emit('stock.low', { productId, level });
  }

  /** Products at or below the low-stock threshold, lowest first. */
  lowStock() {
    return [...this.#levels.entries()]
      .filter(([, level]) => level <= this.lowStockThreshold)
      .map(([productId, level]) => ({ productId, level }))
      .sort((a, b) => a.level - b.level);
  }
}
