import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCents, formatMoney, percentOf, multiplyCents, sumCents } from '../../src/util/money.js';

test('toCents parses amounts exactly', () => {
  assert.equal(toCents('19.99'), 1999);
  assert.equal(toCents(19.99), 1999);
  assert.equal(toCents('7'), 700);
  assert.equal(toCents('0.5'), 50);
  assert.equal(toCents('-3.10'), -310);
});

test('toCents rejects other input', () => {
  for (const bad of ['1.999', 'abc', '', '1,5']) assert.throws(() => toCents(bad), /not a money amount/);
});

test('formatMoney', () => {
  assert.equal(formatMoney(123450), '$1,234.50');
  assert.equal(formatMoney(5), '$0.05');
  assert.equal(formatMoney(-1999), '-$19.99');
  assert.equal(formatMoney(1000, 'EUR'), '€10.00');
});

test('percentOf on whole results', () => {
  assert.equal(percentOf(10000, 8.25), 825);
  assert.equal(percentOf(2000, 10), 200);
  assert.equal(percentOf(0, 15), 0);
});

test('multiply and sum', () => {
  assert.equal(multiplyCents(1999, 3), 5997);
  assert.throws(() => multiplyCents(100, 1.5));
  assert.equal(sumCents([100, 250, -50]), 300);
});

test('percentOf rounds halves away from zero', () => {
  assert.equal(percentOf(5997, 7.25), 435);
  assert.equal(percentOf(40, 6.25), 3);
  assert.equal(percentOf(-40, 6.25), -3);
  assert.equal(percentOf(1, 6.5), 0);
});
