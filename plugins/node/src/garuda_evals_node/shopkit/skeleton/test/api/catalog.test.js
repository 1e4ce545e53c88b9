import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../src/app.js';

function shop() {
  const app = createApp();
  const call = (method, path, body) => app.handle({ method, path, body });
  const office = call('POST', '/categories', { name: 'Office' }).body;
  const pen = call('POST', '/products', { sku: 'PEN-1', name: 'Gel Pen', priceCents: 199, categoryId: office.id }).body;
  return { app, call, office, pen };
}

test('create and list products by category slug', () => {
  const { call, pen } = shop();
  call('POST', '/categories', { name: 'Kitchen' });
  const list = call('GET', '/products?category=office');
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.items.map((p) => p.id), [pen.id]);
  assert.equal(list.body.total, 1);
  assert.equal(call('GET', '/products?category=nope').status, 404);
});

test('validation errors name the field', () => {
  const { call, office } = shop();
  const response = call('POST', '/products', { sku: 'X-1', name: 'X', priceCents: -5, categoryId: office.id });
  assert.equal(response.status, 400);
  assert.equal(response.body.error.field, 'priceCents');
});

test('stock shows on the product and in /inventory', () => {
  const { call, pen } = shop();
  assert.equal(call('POST', `/inventory/${pen.id}/restock`, { quantity: 7 }).body.level, 7);
  assert.equal(call('GET', `/products/${pen.id}`).body.stock, 7);
  assert.deepEqual(call('GET', `/inventory/${pen.id}`).body, { productId: pen.id, level: 7, available: 7 });
});

test('withdrawn products leave the list', () => {
  const { call, pen } = shop();
  assert.equal(call('PATCH', `/products/${pen.id}`, { name: 'Blue Gel Pen' }).body.name, 'Blue Gel Pen');
  assert.equal(call('DELETE', `/products/${pen.id}`).status, 204);
  assert.equal(call('GET', '/products').body.total, 0);
});
