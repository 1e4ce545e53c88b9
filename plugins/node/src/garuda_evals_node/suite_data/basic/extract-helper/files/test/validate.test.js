import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requirePositiveInt } from '../src/validate.js';

test('positive integers are returned', () => {
  assert.equal(requirePositiveInt(7, 'n'), 7);
});

test('non-integers are a TypeError naming the value', () => {
  assert.throws(() => requirePositiveInt(1.5, 'size'), { name: 'TypeError', message: 'size must be an integer, got 1.5' });
  assert.throws(() => requirePositiveInt('3', 'size'), TypeError);
});

test('zero and negatives are a RangeError', () => {
  assert.throws(() => requirePositiveInt(0, 'count'), { name: 'RangeError', message: 'count must be positive, got 0' });
  assert.throws(() => requirePositiveInt(-2, 'count'), RangeError);
});
