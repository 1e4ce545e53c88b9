import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRanges } from '../src/ranges.js';

test('single pages and spaces around parts', () => {
  assert.deepEqual(parseRanges(' 4 ,2'), [2, 4]);
});

test('ranges include both ends', () => {
  assert.deepEqual(parseRanges('3-5'), [3, 4, 5]);
  assert.deepEqual(parseRanges('7-7'), [7]);
});

test('invalid page numbers are a SyntaxError', () => {
  for (const spec of ['0', '-2', '1.5', 'x', '2-x', '0-3']) {
    assert.throws(() => parseRanges(spec), SyntaxError, spec);
  }
});

test('a backwards range is a RangeError', () => {
  assert.throws(() => parseRanges('5-3'), RangeError);
});

test('the result is sorted and holds each page once', () => {
  assert.deepEqual(parseRanges('9, 2-4, 3, 1'), [1, 2, 3, 4, 9]);
});

test('empty specs and empty parts', () => {
  assert.deepEqual(parseRanges(''), []);
  assert.deepEqual(parseRanges('   '), []);
  assert.throws(() => parseRanges('1,,2'), SyntaxError);
});

test('max is the last page', () => {
  assert.deepEqual(parseRanges('1-3', { max: 3 }), [1, 2, 3]);
  assert.throws(() => parseRanges('2-4', { max: 3 }), RangeError);
  assert.throws(() => parseRanges('4', { max: 3 }), RangeError);
});
