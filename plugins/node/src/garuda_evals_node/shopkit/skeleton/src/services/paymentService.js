import { MemoryStore } from '../store/memoryStore.js';
import { createPayment, PAYMENT_PREFIX } from '../entities/payment.js';
import { ConflictError, PaymentError } from '../util/errors.js';
import { formatMoney, sumCents } from '../util/money.js';
import { requirePositiveInt } from '../util/validate.js';

/** Charges for orders and refunds of charges. */
export class PaymentService {
  constructor({ clock, nextId, bus }, { orders, inventory }) {
    this.clock = clock;
    this.nextId = nextId;
    this.bus = bus;
    this.orders = orders;
    this.inventory = inventory;
    this.store = new MemoryStore('payment');
  }

  #insert(input) {
    return this.store.insert(createPayment(input, { id: this.nextId(PAYMENT_PREFIX), now: this.clock.now() }));
  }

  /** Charges a pending order its exact total, marks it paid and commits its stock. */
  capture(orderId, { method, amountCents }) {
    const order = this.orders.get(orderId);
    if (order.status !== 'pending') {
      throw new ConflictError(`order ${orderId} is ${order.status}, not pending`, 'bad-status');
    }
    if (amountCents !== order.totalCents) {
      throw new PaymentError(
        `payment of ${formatMoney(amountCents)} does not match the order total ${formatMoney(order.totalCents)}`,
        'amount-mismatch',
      );
    }
    const payment = this.#insert({ orderId, kind: 'charge', method, amountCents });
    this.orders.markPaid(orderId);
    for (const line of order.lines) this.inventory.commit(line.productId, line.quantity);
    this.bus.emit('payment.captured', { orderId, paymentId: payment.id, amountCents });
    return payment;
  }

  /** Refunds part or all of what an order was charged, to the charge's method. */
  refund(orderId, amountCents) {
    requirePositiveInt(amountCents, 'amountCents');
    const payments = this.forOrder(orderId);
    const charge = payments.find((payment) => payment.kind === 'charge');
    if (!charge) throw new ConflictError(`order ${orderId} has no charge`, 'not-charged');
    const refunded = sumCents(payments.filter((p) => p.kind === 'refund').map((p) => p.amountCents));
    if (refunded + amountCents > charge.amountCents) {
      throw new PaymentError(`refunds would exceed the charge of ${formatMoney(charge.amountCents)}`, 'over-refund');
    }
    const refund = this.#insert({ orderId, kind: 'refund', method: charge.method, amountCents });
    this.bus.emit('payment.refunded', { orderId, paymentId: refund.id, amountCents });
    return refund;
  }

  forOrder(orderId) {
    this.orders.get(orderId);
    return this.store.list((payment) => payment.orderId === orderId);
  }
}
