import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requirePositiveInt } from '../src/validate.js';

test('a fraction is a TypeError naming the value', () => {
  assert.throws(() => requirePositiveInt(2.5, 'weight'), {
    name: 'TypeError',
    message: 'weight must be an integer, got 2.5',
  });
});

test('a negative number is a RangeError naming the value', () => {
  assert.throws(() => requirePositiveInt(-7, 'stock'), {
    name: 'RangeError',
    message: 'stock must be positive, got -7',
  });
});

test('a numeric string is a TypeError', () => {
  assert.throws(() => requirePositiveInt('4', 'count'), {
    name: 'TypeError',
    message: 'count must be an integer, got 4',
  });
});

test('a positive integer is returned', () => {
  assert.equal(requirePositiveInt(12, 'n'), 12);
});
