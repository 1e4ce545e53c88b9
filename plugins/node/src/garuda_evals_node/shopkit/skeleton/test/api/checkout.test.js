import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../src/app.js';

function shop() {
  const app = createApp();
  const call = (method, path, body) => app.handle({ method, path, body });
  const office = call('POST', '/categories', { name: 'Office' }).body;
  const pen = call('POST', '/products', { sku: 'PEN-1', name: 'Gel Pen', priceCents: 1200, categoryId: office.id }).body;
  call('POST', `/inventory/${pen.id}/restock`, { quantity: 20 });
  const customer = call('POST', '/customers', { email: 'Greta@Example.com', $NAME$: 'Greta Okafor' }).body;
  const address = call('POST', `/customers/${customer.id}/addresses`, { line1: '2 Side St', city: 'Albany', postalCode: '12207', region: 'NY' }).body;
  return { app, call, pen, customer, address };
}

test('customers register through the API', () => {
  const { call, customer } = shop();
  assert.deepEqual(call('GET', `/customers/${customer.id}`).body, {
    id: customer.id, email: 'greta@example.com', $NAME$: 'Greta Okafor', phone: null,
  });
  assert.equal(call('POST', '/customers', { email: 'greta@example.com', $NAME$: 'G' }).status, 409);
});

test('cart, coupon, order, payment and shipment', () => {
  const { app, call, pen, customer, address } = shop();
  call('POST', '/coupons', { code: 'save5', amountCents: 500 });
  const cart = call('POST', '/carts', { customerId: customer.id }).body;
  call('POST', `/carts/${cart.id}/items`, { productId: pen.id, quantity: 3 });
  assert.equal(call('POST', `/carts/${cart.id}/coupon`, { code: 'SAVE5' }).status, 200);
  const priced = call('GET', `/carts/${cart.id}?region=NY`).body;
  assert.deepEqual([priced.subtotalCents, priced.discountCents, priced.taxCents, priced.shippingCents], [3600, 500, 124, 599]);
  const order = call('POST', '/orders', { cartId: cart.id, addressId: address.id });
  assert.equal(order.status, 201);
  assert.equal(order.body.totalCents, 3823);
  assert.equal(call('POST', `/orders/${order.body.id}/payments`, { method: 'card', amountCents: 100 }).status, 402);
  assert.equal(call('POST', `/orders/${order.body.id}/payments`, { method: 'card', amountCents: 3823 }).status, 201);
  assert.deepEqual(app.services.notifications.outbox().map((email) => email.template), ['order-confirmation', 'payment-receipt']);
  const shipment = call('POST', `/orders/${order.body.id}/shipment`, { carrier: 'usps' });
  assert.equal(shipment.body.trackingNumber, 'USPS-000001');
  assert.equal(call('GET', `/orders/${order.body.id}`).body.status, 'shipped');
  assert.equal(call('GET', `/customers/${customer.id}/orders`).body.length, 1);
});

test('coupon errors are 422', () => {
  const { call, pen, customer } = shop();
  const cart = call('POST', '/carts', { customerId: customer.id }).body;
  call('POST', `/carts/${cart.id}/items`, { productId: pen.id });
  const response = call('POST', `/carts/${cart.id}/coupon`, { code: 'NOPE' });
  assert.equal(response.status, 422);
  assert.equal(response.body.error.code, 'coupon-unknown');
});
