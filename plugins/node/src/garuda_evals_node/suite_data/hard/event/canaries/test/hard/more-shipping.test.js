import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop, placeOrder, payOrder } from '../helpers.js';

function paidOrder(shop) {
  const order = placeOrder(shop, [[shop.mug, 1]]);
  payOrder(shop, order);
  return order;
}

test("a fedex shipment's event a", () => {
  const shop = makeShop();
  const order = paidOrder(shop);
  const shipment = shop.services.shipping.ship(order.id, { carrier: 'fedex' });
  const [event] = shop.app.bus.history('order.shipped');
  assert.deepEqual(event.payload, { orderId: order.id, customerId: shop.ada.id, shipmentId: shipment.id, carrier: 'FEDEX', trackingNumber: shipment.trackingNumber });
});

test("a fedex shipment's event b", () => {
  const shop = makeShop();
  const order = paidOrder(shop);
  const shipment = shop.services.shipping.ship(order.id, { carrier: 'fedex' });
  const [event] = shop.app.bus.history('order.shipped');
  assert.deepEqual(event.payload, { orderId: order.id, customerId: shop.ada.id, shipmentId: shipment.id, carrier: 'Fedex', trackingNumber: shipment.trackingNumber });
});

test('the email names the carrier in capitals a', () => {
  const shop = makeShop();
  const order = paidOrder(shop);
  const shipment = shop.services.shipping.ship(order.id, { carrier: 'fedex' });
  const email = shop.services.notifications.outbox().at(-1);
  assert.equal(email.body, `Hi Ada, your order ${order.id} is on its way with fedex: tracking number ${shipment.trackingNumber}.`);
});

test('the email names the carrier in capitals b', () => {
  const shop = makeShop();
  const order = paidOrder(shop);
  const shipment = shop.services.shipping.ship(order.id, { carrier: 'fedex' });
  const email = shop.services.notifications.outbox().at(-1);
  assert.equal(email.body, `Hi Ada, your order ${order.id} is on its way with Fedex: tracking number ${shipment.trackingNumber}.`);
});

test('only the shipped order gets the email a', () => {
  const shop = makeShop();
  const first = paidOrder(shop);
  const second = paidOrder(shop);
  shop.services.shipping.ship(second.id, { carrier: 'usps' });
  const shipped = shop.services.notifications.outbox().filter((email) => email.template === 'order-shipped');
  assert.deepEqual(shipped.map((email) => email.subject), [`Order ${first.id} has shipped`]);
});

test('only the shipped order gets the email b', () => {
  const shop = makeShop();
  const first = paidOrder(shop);
  const second = paidOrder(shop);
  shop.services.shipping.ship(second.id, { carrier: 'usps' });
  const shipped = shop.services.notifications.outbox().filter((email) => email.template === 'order-shipped');
  assert.deepEqual(shipped.map((email) => email.subject), [`Order ${first.id} has shipped`, `Order ${second.id} has shipped`]);
});
