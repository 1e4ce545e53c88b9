import { MemoryStore } from '../store/memoryStore.js';
import { createReview, REVIEW_PREFIX } from '../entities/review.js';
import { ConflictError } from '../util/errors.js';

const BOUGHT = ['paid', 'shipped'];

/** Reviews: one per customer and product; verified when the customer bought it. */
export class ReviewService {
  constructor({ clock, nextId }, { products, customers, orders }) {
    this.clock = clock;
    this.nextId = nextId;
    this.products = products;
    this.customers = customers;
    this.orders = orders;
    this.store = new MemoryStore('review');
  }

  add({ productId, customerId, rating, text }) {
    this.products.get(productId);
    this.customers.get(customerId);
    if (this.store.findOne((r) => r.productId === productId && r.customerId === customerId)) {
      throw new ConflictError(`customer ${customerId} already reviewed ${productId}`, 'duplicate-review');
    }
    const verified = this.orders
      .listForCustomer(customerId)
      .some((order) => BOUGHT.includes(order.status) && order.lines.some((line) => line.productId === productId));
    return this.store.insert(
      createReview({ productId, customerId, rating, text, verified }, { id: this.nextId(REVIEW_PREFIX), now: this.clock.now() }),
    );
  }

  forProduct(productId) {
    this.products.get(productId);
    return this.store.list((review) => review.productId === productId);
  }

  /** Count, average rating (one decimal, null without reviews) and verified count. */
  summary(productId) {
    const reviews = this.forProduct(productId);
    const total = reviews.reduce((sum, review) => sum + review.rating, 0);
    return {
      count: reviews.length,
      average: reviews.length ? Math.round((total / reviews.length) * 10) / 10 : null,
      verified: reviews.filter((review) => review.verified).length,
    };
  }
}
