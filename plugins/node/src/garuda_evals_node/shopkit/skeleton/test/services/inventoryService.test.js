import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop } from '../helpers.js';

test('reserve, release and available', () => {
  const { services, pen } = makeShop();
  services.inventory.reserve(pen.id, 4);
  assert.equal(services.inventory.level(pen.id), 10);
  assert.equal(services.inventory.available(pen.id), 6);
  services.inventory.release(pen.id, 4);
  assert.equal(services.inventory.available(pen.id), 10);
});

test('reserving more than is available is a conflict', () => {
  const { services, mug } = makeShop();
  assert.throws(() => services.inventory.reserve(mug.id, 11), { code: 'out-of-stock' });
});

test('commit takes units off the shelf and reports low stock', () => {
  const { app, services, pad } = makeShop();
  services.inventory.reserve(pad.id, 6);
  services.inventory.commit(pad.id, 6);
  assert.equal(services.inventory.level(pad.id), 4);
  assert.deepEqual(app.bus.history('stock.low').map((e) => e.payload), [{ productId: pad.id, level: 4 }]);
  assert.deepEqual(services.inventory.lowStock(), [{ productId: pad.id, level: 4 }]);
});
