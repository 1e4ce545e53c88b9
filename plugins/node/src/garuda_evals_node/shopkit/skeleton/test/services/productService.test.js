import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop } from '../helpers.js';

test('a product needs an existing category and a new SKU', () => {
  const { services, office } = makeShop();
  assert.throws(() => services.products.create({ sku: 'X', name: 'X', priceCents: 1, categoryId: 'cat_0999' }), { status: 404 });
  assert.throws(() => services.products.create({ sku: 'PEN-1', name: 'Pen', priceCents: 1, categoryId: office.id }), { code: 'duplicate-sku' });
});

test('list by category hides inactive products', () => {
  const { services, office, pen, pad } = makeShop();
  assert.deepEqual(services.products.list({ categoryId: office.id }).map((p) => p.id), [pen.id, pad.id]);
  services.products.deactivate(pad.id);
  assert.deepEqual(services.products.list({ categoryId: office.id }).map((p) => p.id), [pen.id]);
  assert.equal(services.products.list({ includeInactive: true }).length, 3);
});

test('update validates the category', () => {
  const { services, pen, kitchen } = makeShop();
  assert.equal(services.products.update(pen.id, { categoryId: kitchen.id }).categoryId, kitchen.id);
  assert.throws(() => services.products.update(pen.id, { categoryId: 'cat_0999' }), { status: 404 });
});

test('inactive products cannot be sold', () => {
  const { services, mug } = makeShop();
  services.products.deactivate(mug.id);
  assert.throws(() => services.products.requireActive(mug.id), { code: 'inactive-product' });
});
