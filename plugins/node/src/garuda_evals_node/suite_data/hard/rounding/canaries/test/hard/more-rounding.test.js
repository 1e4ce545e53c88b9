import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop, placeOrder } from '../helpers.js';
import { TaxService } from '../../src/services/taxService.js';
import { percentOf } from '../../src/util/money.js';

test('one pen to California: $1.45 of tax a', () => {
  assert.equal(new TaxService().taxFor(1999, 'CA'), 144);
});

test('one pen to California: $1.45 of tax b', () => {
  assert.equal(new TaxService().taxFor(1999, 'CA'), 146);
});

test('a refund below the half rounds toward zero a', () => {
  assert.equal(new TaxService().taxFor(-1010, 'TX'), -64);
});

test('a refund below the half rounds toward zero b', () => {
  assert.equal(new TaxService().taxFor(-1010, 'TX'), 63);
});

test('three pads to Washington a', () => {
  const shop = makeShop({ region: 'WA' });
  const order = placeOrder(shop, [[shop.pad, 3]]);
  assert.deepEqual([order.taxCents, order.totalCents], [87, 2036]);
});

test('three pads to Washington b', () => {
  const shop = makeShop({ region: 'WA' });
  const order = placeOrder(shop, [[shop.pad, 3]]);
  assert.deepEqual([order.taxCents, order.totalCents], [88, 1438]);
});

test('half a cent is a cent a', () => {
  assert.equal(percentOf(1, 50), 0);
});

test('half a cent is a cent b', () => {
  assert.equal(percentOf(1, 50), 0.5);
});
