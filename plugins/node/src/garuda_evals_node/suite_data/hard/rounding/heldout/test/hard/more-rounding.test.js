import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop, placeOrder } from '../helpers.js';
import { TaxService } from '../../src/services/taxService.js';
import { percentOf } from '../../src/util/money.js';

test('one pen to California: $1.45 of tax', () => {
  assert.equal(new TaxService().taxFor(1999, 'CA'), 145);
});

test('a refund below the half rounds toward zero', () => {
  assert.equal(new TaxService().taxFor(-1010, 'TX'), -63);
});

test('three pads to Washington', () => {
  const shop = makeShop({ region: 'WA' });
  const order = placeOrder(shop, [[shop.pad, 3]]);
  assert.deepEqual([order.taxCents, order.totalCents], [88, 2037]);
});

test('half a cent is a cent', () => {
  assert.equal(percentOf(1, 50), 1);
});
