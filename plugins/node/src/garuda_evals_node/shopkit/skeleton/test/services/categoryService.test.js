import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop } from '../helpers.js';

test('the slug comes from the name', () => {
  const { services } = makeShop();
  assert.equal(services.categories.create({ name: 'Garden & Patio' }).slug, 'garden-patio');
});

test('slugs are unique', () => {
  const { services } = makeShop();
  assert.throws(() => services.categories.create({ name: 'office' }), { code: 'conflict' });
});

test('lookup by slug', () => {
  const { services, kitchen } = makeShop();
  assert.equal(services.categories.getBySlug('kitchen').id, kitchen.id);
  assert.equal(services.categories.findBySlug('nope'), undefined);
  assert.throws(() => services.categories.getBySlug('nope'), { status: 404 });
});
