import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createIdGenerator, isId, idNumber } from '../../src/util/ids.js';

test('one counter per prefix', () => {
  const nextId = createIdGenerator();
  assert.equal(nextId('prod'), 'prod_0001');
  assert.equal(nextId('prod'), 'prod_0002');
  assert.equal(nextId('ord'), 'ord_0001');
});

test('generators are independent', () => {
  const a = createIdGenerator();
  const b = createIdGenerator();
  a('cart');
  assert.equal(b('cart'), 'cart_0001');
});

test('isId and idNumber', () => {
  assert.ok(isId('ord_0012', 'ord'));
  assert.ok(!isId('ord_12', 'ord'));
  assert.ok(!isId('prod_0012', 'ord'));
  assert.equal(idNumber('ord_0012'), 12);
});
