import { MemoryStore } from '../store/memoryStore.js';
import { createCategory, CATEGORY_PREFIX } from '../entities/category.js';
import { ConflictError, NotFoundError } from '../util/errors.js';
import { slugify } from '../util/strings.js';

/** Categories, addressed by id inside the shop and by slug in URLs. */
export class CategoryService {
  constructor({ clock, nextId }) {
    this.clock = clock;
    this.nextId = nextId;
    this.store = new MemoryStore('category');
  }

  /** Creates a category; the slug defaults to the slug of the name and must be unique. */
  create(input) {
    const slug = input.slug ?? (typeof input.name === 'string' ? slugify(input.name) : undefined);
    const category = createCategory({ ...input, slug }, { id: this.nextId(CATEGORY_PREFIX), now: this.clock.now() });
    if (this.findBySlug(category.slug)) throw new ConflictError(`category slug ${category.slug} is taken`);
    return this.store.insert(category);
  }

  get(id) {
    return this.store.get(id);
  }

  findBySlug(slug) {
    return this.store.findOne((category) => category.slug === slug);
  }

  getBySlug(slug) {
    const category = this.findBySlug(slug);
    if (!category) throw new NotFoundError('category', slug);
    return category;
  }

  list() {
    return this.store.list();
  }
}
