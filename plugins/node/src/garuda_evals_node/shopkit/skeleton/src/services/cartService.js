import { MemoryStore } from '../store/memoryStore.js';
import { createCart, updateCart, CART_PREFIX } from '../entities/cart.js';
import { NotFoundError } from '../util/errors.js';
import { requireInt, requirePositiveInt, requireString } from '../util/validate.js';

/** Carts: lines of { productId, quantity } and at most one coupon code. */
export class CartService {
  constructor({ clock, nextId }, { products, customers, coupons, pricing }) {
    this.clock = clock;
    this.nextId = nextId;
    this.products = products;
    this.customers = customers;
    this.coupons = coupons;
    this.pricing = pricing;
    this.store = new MemoryStore('cart');
  }

  create(customerId) {
    this.customers.get(customerId);
    return this.store.insert(createCart({ customerId }, { id: this.nextId(CART_PREFIX), now: this.clock.now() }));
  }

  get(id) {
    return this.store.get(id);
  }

  #save(cart, changes) {
    return this.store.replace(updateCart(cart, changes));
  }

  /** Adds `quantity` of an active product; a product already in the cart adds up. */
  addItem(cartId, productId, quantity = 1) {
    requirePositiveInt(quantity, 'quantity');
    this.products.requireActive(productId);
    const cart = this.get(cartId);
    const existing = cart.lines.find((line) => line.productId === productId);
    const lines = existing
      ? cart.lines.map((line) => (line === existing ? { productId, quantity: line.quantity + quantity } : line))
      : [...cart.lines, { productId, quantity }];
    return this.#save(cart, { lines });
  }

  /** Sets a line's quantity; 0 removes the line. */
  setQuantity(cartId, productId, quantity) {
    requireInt(quantity, 'quantity', { min: 0 });
    const cart = this.get(cartId);
    if (!cart.lines.some((line) => line.productId === productId)) throw new NotFoundError('cart line', productId);
    const lines = cart.lines
      .map((line) => (line.productId === productId ? { productId, quantity } : line))
      .filter((line) => line.quantity > 0);
    return this.#save(cart, { lines });
  }

  removeItem(cartId, productId) {
    return this.setQuantity(cartId, productId, 0);
  }

  /** Applies a coupon after checking it against the cart's subtotal. */
  applyCoupon(cartId, code) {
    requireString(code, 'code', { max: 32 });
    const cart = this.get(cartId);
    const { subtotalCents } = this.pricing.quote(cart.lines);
    const coupon = this.coupons.validate(code, subtotalCents);
    return this.#save(cart, { couponCode: coupon.code });
  }

  removeCoupon(cartId) {
    return this.#save(this.get(cartId), { couponCode: null });
  }

  /** The cart priced for `region` (null: before an address is known). */
  quote(cartId, region = null) {
    const cart = this.get(cartId);
    return this.pricing.quote(cart.lines, { region, couponCode: cart.couponCode });
  }

  clear(cartId) {
    return this.#save(this.get(cartId), { lines: [], couponCode: null });
  }
}
