import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../src/app.js';
import { loadSeed } from '../../src/seed.js';

function seeded() {
  const app = createApp();
  loadSeed(app.services);
  return (path) => app.handle({ method: 'GET', path });
}

test('sales by category are sorted by revenue', () => {
  const rows = seeded()('/reports/sales-by-category').body;
  assert.ok(rows.length > 1);
  for (let i = 1; i < rows.length; i += 1) assert.ok(rows[i - 1].revenueCents >= rows[i].revenueCents);
});

test('top customers honour the limit', () => {
  const rows = seeded()('/reports/top-customers?limit=2').body;
  assert.equal(rows.length, 2);
  assert.deepEqual(Object.keys(rows[0]), ['customerId', '$NAME$', 'orders', 'spentCents']);
});

test('the orders CSV has a header and a row per order', () => {
  const csv = seeded()('/reports/orders.csv').body;
  assert.equal(csv.split('\n')[0], 'order,customer,status,total');
  assert.equal(csv.trim().split('\n').length, 7);
});
