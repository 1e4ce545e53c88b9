import { MemoryStore } from '../store/memoryStore.js';
import { createOrder, updateOrder, ORDER_PREFIX } from '../entities/order.js';
import { ConflictError } from '../util/errors.js';

/**
 * Orders. Placing one prices the cart for the address's region, reserves the stock,
 * empties the cart and emits order.placed. Status: pending -> paid -> shipped, or
 * pending -> cancelled.
 */
export class OrderService {
  constructor({ clock, nextId, bus }, { carts, customers, inventory }) {
    this.clock = clock;
    this.nextId = nextId;
    this.bus = bus;
    this.carts = carts;
    this.customers = customers;
    this.inventory = inventory;
    this.store = new MemoryStore('order');
  }

  place(cartId, { addressId }) {
    const cart = this.carts.get(cartId);
    if (cart.lines.length === 0) throw new ConflictError(`cart ${cartId} is empty`, 'empty-cart');
    const address = this.customers.getAddress(cart.customerId, addressId);
    const quote = this.carts.quote(cartId, address.region);
    const reserved = [];
    try {
      for (const line of cart.lines) {
        this.inventory.reserve(line.productId, line.quantity);
        reserved.push(line);
      }
    } catch (error) {
      for (const line of reserved) this.inventory.release(line.productId, line.quantity);
      throw error;
    }
    const { lines, subtotalCents, discountCents, taxCents, shippingCents, totalCents } = quote;
    const order = this.store.insert(
      createOrder(
        { customerId: cart.customerId, addressId, lines, subtotalCents, discountCents, taxCents, shippingCents, totalCents, couponCode: cart.couponCode },
        { id: this.nextId(ORDER_PREFIX), now: this.clock.now() },
      ),
    );
    this.carts.clear(cartId);
    this.bus.emit('order.placed', { orderId: order.id, customerId: order.customerId, totalCents });
    return order;
  }

  get(id) {
    return this.store.get(id);
  }

  list() {
    return this.store.list();
  }

  listForCustomer(customerId) {
    return this.store.list((order) => order.customerId === customerId);
  }

  #move(id, from, to) {
    const order = this.get(id);
    if (!from.includes(order.status)) {
      throw new ConflictError(`order ${id} is ${order.status}, not ${from.join(' or ')}`, 'bad-status');
    }
    return this.store.replace(updateOrder(order, { status: to }));
  }

  markPaid(id) {
    return this.#move(id, ['pending'], 'paid');
  }

  markShipped(id) {
    return this.#move(id, ['paid'], 'shipped');
  }

  /** Cancels a pending order and releases its stock. */
  cancel(id) {
    const order = this.#move(id, ['pending'], 'cancelled');
    for (const line of order.lines) this.inventory.release(line.productId, line.quantity);
    this.bus.emit('order.cancelled', { orderId: id, customerId: order.customerId });
    return order;
  }
}
