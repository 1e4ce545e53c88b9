import { MemoryStore } from '../store/memoryStore.js';
import { createProduct, updateProduct, PRODUCT_PREFIX } from '../entities/product.js';
import { ConflictError } from '../util/errors.js';

/** The catalog. Every product belongs to an existing category and has a unique SKU. */
export class ProductService {
  constructor({ clock, nextId }, { categories }) {
    this.clock = clock;
    this.nextId = nextId;
    this.categories = categories;
    this.store = new MemoryStore('product');
  }

  create(input) {
    const product = createProduct(input, { id: this.nextId(PRODUCT_PREFIX), now: this.clock.now() });
    this.categories.get(product.categoryId);
    if (this.findBySku(product.sku)) throw new ConflictError(`sku ${product.sku} exists`, 'duplicate-sku');
    return this.store.insert(product);
  }

  get(id) {
    return this.store.get(id);
  }

  findBySku(sku) {
    return this.store.findOne((product) => product.sku === sku);
  }

  /** Products of a category (by id), active ones only unless `includeInactive`. */
  list({ categoryId, includeInactive = false } = {}) {
    return this.store.list(
      (p) => (includeInactive || p.active) && (categoryId === undefined || p.categoryId === categoryId),
    );
  }

  update(id, changes) {
    if (changes.categoryId !== undefined) this.categories.get(changes.categoryId);
    return this.store.replace(updateProduct(this.get(id), changes));
  }

  deactivate(id) {
    return this.update(id, { active: false });
  }

  /** The product, if it can be sold; an inactive product is a ConflictError. */
  requireActive(id) {
    const product = this.get(id);
    if (!product.active) throw new ConflictError(`product ${id} is not for sale`, 'inactive-product');
    return product;
  }
}
