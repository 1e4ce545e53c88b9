import { formatMoney } from '../util/money.js';
import { fillTemplate } from '../util/strings.js';

/** Email templates by name; {placeholders} are filled from the event and the customer. */
export const TEMPLATES = Object.freeze({
  'order-confirmation': {
    subject: 'Order {orderId} confirmed',
    body: 'Hi {firstName}, thank you for your order {orderId} of {total}.',
  },
  'payment-receipt': {
    subject: 'Receipt for order {orderId}',
    body: 'Hi {firstName}, we received {amount} for order {orderId}.',
  },
});

/** Turns shop events into emails to the customer. Emails wait in an outbox. */
export class NotificationService {
  #outbox = [];

  constructor({ bus }, { orders, customers }) {
    this.orders = orders;
    this.customers = customers;
    bus.on('order.placed', ({ orderId, totalCents }) =>
      this.send(orderId, 'order-confirmation', { total: formatMoney(totalCents) }),
    );
    bus.on('payment.captured', ({ orderId, amountCents }) =>
      this.send(orderId, 'payment-receipt', { amount: formatMoney(amountCents) }),
    );
  }

  /** Queues template `name` to the customer of `orderId`. */
  send(orderId, name, values = {}) {
    const template = TEMPLATES[name];
    if (!template) throw new Error(`no email template ${name}`);
    const order = this.orders.get(orderId);
    const customer = this.customers.get(order.customerId);
    const all = { orderId, firstName: this.customers.firstName(customer), ...values };
    const email = {
      to: customer.email,
      template: name,
      subject: fillTemplate(template.subject, all),
      body: fillTemplate(template.body, all),
    };
    this.#outbox.push(email);
    return email;
  }

  /** Every email queued so far, oldest first. */
  outbox() {
    return [...this.#outbox];
  }
}
