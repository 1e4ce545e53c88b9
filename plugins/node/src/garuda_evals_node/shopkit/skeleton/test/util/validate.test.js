import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  requireString, optionalString, requireInt, requireCents, requireEmail, requireOneOf,
  requireBoolean, requireIsoDate, requireList, requirePositiveInt,
} from '../../src/util/validate.js';
import { ValidationError } from '../../src/util/errors.js';

test('strings are trimmed and bounded', () => {
  assert.equal(requireString('  pen ', 'name'), 'pen');
  assert.throws(() => requireString('   ', 'name'), ValidationError);
  assert.throws(() => requireString('abcd', 'name', { max: 3 }), /longer than 3/);
  assert.equal(optionalString(undefined, 'phone'), null);
});

test('numbers', () => {
  assert.equal(requireInt(5, 'n', { min: 1, max: 5 }), 5);
  assert.throws(() => requireInt(6, 'n', { max: 5 }), ValidationError);
  assert.throws(() => requireCents(-1, 'price'), ValidationError);
  assert.throws(() => requireCents(1.5, 'price'), ValidationError);
  assert.throws(() => requirePositiveInt(0, 'qty'), ValidationError);
});

test('emails are lower-cased', () => {
  assert.equal(requireEmail('Ada@Example.COM'), 'ada@example.com');
  assert.throws(() => requireEmail('nope'), { field: 'email' });
});

test('choices, booleans, dates and lists', () => {
  assert.equal(requireOneOf('fixed', 'type', ['fixed']), 'fixed');
  assert.throws(() => requireOneOf('x', 'type', ['fixed']), /one of fixed/);
  assert.throws(() => requireBoolean('yes', 'active'), ValidationError);
  assert.equal(requireIsoDate('2024-02-03T04:05:06Z', 'at'), '2024-02-03T04:05:06.000Z');
  assert.throws(() => requireIsoDate('soon', 'at'), ValidationError);
  assert.deepEqual(requireList([1, 2], 'ids', (v) => v * 2), [2, 4]);
  assert.throws(() => requireList([], 'ids', (v) => v), /ids is empty/);
});
