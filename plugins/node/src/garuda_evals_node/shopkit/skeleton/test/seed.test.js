import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../src/app.js';
import { loadSeed } from '../src/seed.js';
import { products } from '../fixtures/products.js';
import { orders } from '../fixtures/orders.js';

test('the seed loads every fixture through the services', () => {
  const app = createApp();
  const ids = loadSeed(app.services);
  assert.equal(app.services.products.list().length, products.length);
  assert.equal(app.services.orders.list().length, orders.length);
  assert.equal(ids.customerIds.size, app.services.customers.store.count());
});

test('seeded orders are paid, and shipped when they name a carrier', () => {
  const app = createApp();
  loadSeed(app.services);
  app.services.orders.list().forEach((order, i) => {
    assert.equal(order.status, orders[i].carrier ? 'shipped' : 'paid');
  });
});

test('two seeded apps hold the same data', () => {
  const first = createApp();
  const second = createApp();
  loadSeed(first.services);
  loadSeed(second.services);
  assert.deepEqual(first.services.orders.list(), second.services.orders.list());
});
