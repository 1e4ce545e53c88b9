import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop, placeOrder, payOrder } from '../helpers.js';

function paidOrder() {
  const shop = makeShop();
  const order = placeOrder(shop, [[shop.pen, 1]]);
  payOrder(shop, order);
  return { shop, order };
}

test('shipping emits order.shipped with the shipment', () => {
  const { shop, order } = paidOrder();
  const shipment = shop.services.shipping.ship(order.id, { carrier: 'ups' });
  assert.deepEqual(shop.app.bus.history('order.shipped').map((event) => event.payload), [
    { orderId: order.id, customerId: shop.ada.id, shipmentId: shipment.id, carrier: 'ups', trackingNumber: 'UPS-000001' },
  ]);
});

test('listeners see the order already shipped', () => {
  const { shop, order } = paidOrder();
  let status;
  shop.app.bus.on('order.shipped', ({ orderId }) => {
    status = shop.services.orders.get(orderId).status;
  });
  shop.services.shipping.ship(order.id, { carrier: 'fedex' });
  assert.equal(status, 'shipped');
});

test('the customer gets a shipping email', () => {
  const { shop, order } = paidOrder();
  shop.services.shipping.ship(order.id, { carrier: 'usps' });
  const emails = shop.services.notifications.outbox();
  assert.deepEqual(emails.map((email) => email.template), ['order-confirmation', 'payment-receipt', 'order-shipped']);
  assert.deepEqual(emails[2], {
    to: 'ada@example.com',
    template: 'order-shipped',
    subject: `Order ${order.id} has shipped`,
    body: `Hi Ada, your order ${order.id} is on its way with USPS: tracking number USPS-000001.`,
  });
});

test('a refused shipment emits nothing', () => {
  const shop = makeShop();
  const order = placeOrder(shop, [[shop.pen, 1]]);
  assert.throws(() => shop.services.shipping.ship(order.id, { carrier: 'ups' }), { code: 'bad-status' });
  assert.deepEqual(shop.app.bus.history('order.shipped'), []);
  assert.equal(shop.services.notifications.outbox().length, 1);
});

test('shipping through the API sends the email too', () => {
  const { shop, order } = paidOrder();
  const response = shop.app.handle({ method: 'POST', path: `/orders/${order.id}/shipment`, body: { carrier: 'ups' } });
  assert.equal(response.status, 201);
  assert.equal(shop.services.notifications.outbox().at(-1).subject, `Order ${order.id} has shipped`);
});

test('the architecture notes list the event', async () => {
  const { readFile } = await import('node:fs/promises');
  const notes = await readFile(new URL('../../docs/ARCHITECTURE.md', import.meta.url), 'utf8');
  assert.match(notes, /\|\s*order\.shipped\s*\|\s*ShippingService\.ship\s*\|/);
});
