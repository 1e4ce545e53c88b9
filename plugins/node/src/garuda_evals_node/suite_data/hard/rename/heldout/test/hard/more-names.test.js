import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop, placeOrder, payOrder } from '../helpers.js';
import { createApp } from '../../src/app.js';
import { loadSeed } from '../../src/seed.js';

test('a customer registers with a full name through the API', () => {
  const shop = makeShop();
  const response = shop.app.handle({ method: 'POST', path: '/customers', body: { email: 'grace@example.com', fullName: 'Grace Hopper' } });
  assert.deepEqual([response.status, response.body.fullName, 'name' in response.body], [201, 'Grace Hopper', false]);
});

test('a missing full name names the field', () => {
  const shop = makeShop();
  assert.throws(() => shop.services.customers.register({ email: 'x@example.com' }), { name: 'ValidationError', field: 'fullName' });
});

test('top customers show the full name', () => {
  const shop = makeShop();
  const order = placeOrder(shop, [[shop.pad, 2]]);
  payOrder(shop, order);
  const [row] = shop.app.handle({ method: 'GET', path: '/reports/top-customers' }).body;
  assert.deepEqual(row, { customerId: shop.ada.id, fullName: 'Ada Marsh', orders: 1, spentCents: order.totalCents });
});

test('the demo customers have full names', () => {
  const app = createApp();
  loadSeed(app.services);
  assert.deepEqual(app.services.customers.store.list().slice(0, 2).map((customer) => customer.fullName), ['Ada Marsh', 'Bruno Navarro']);
});
