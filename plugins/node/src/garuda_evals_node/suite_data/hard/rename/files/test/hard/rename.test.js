import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../src/app.js';
import { loadSeed } from '../../src/seed.js';
import { CUSTOMER_FIELDS } from '../../src/entities/customer.js';
import { PRODUCT_FIELDS } from '../../src/entities/product.js';

test('customers have fullName and no name', () => {
  assert.ok(CUSTOMER_FIELDS.includes('fullName'));
  assert.ok(!CUSTOMER_FIELDS.includes('name'));
});

test('products keep name', () => {
  assert.ok(PRODUCT_FIELDS.includes('name'));
});

test('the API takes and gives fullName only', () => {
  const app = createApp();
  const response = app.handle({ method: 'POST', path: '/customers', body: { email: 'kay@example.com', fullName: 'Kay Cee' } });
  assert.equal(response.status, 201);
  assert.equal(response.body.fullName, 'Kay Cee');
  assert.equal('name' in response.body, false);
  const old = app.handle({ method: 'POST', path: '/customers', body: { email: 'old@example.com', name: 'Old Field' } });
  assert.equal(old.status, 400);
  assert.equal(old.body.error.field, 'fullName');
});

test('the seeded customers have their full names', () => {
  const app = createApp();
  loadSeed(app.services);
  const [first] = app.services.reports.topCustomers(1);
  assert.equal(typeof first.fullName, 'string');
  assert.ok(first.fullName.includes(' '));
  assert.match(app.services.reports.ordersCsv().split('\n')[1], /^ord_0001,Ada Marsh,/);
});
