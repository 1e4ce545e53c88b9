import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, formatTotal } from '../src/duration.js';

test('zero is 0s', () => {
  assert.equal(formatDuration(0), '0s');
});

test('seconds only, milliseconds dropped', () => {
  assert.equal(formatDuration(42_999), '42s');
});

test('minutes and seconds', () => {
  assert.equal(formatDuration(125_000), '2m 5s');
});

test('hours, minutes and seconds', () => {
  assert.equal(formatDuration(3_723_000), '1h 2m 3s');
});

test('whole hours leave out zero parts', () => {
  assert.equal(formatDuration(7_200_000), '2h');
});

test('negative durations are rejected', () => {
  assert.throws(() => formatDuration(-1), RangeError);
});

test('totals are summed before formatting', () => {
  assert.equal(formatTotal([1_800_000, 1_830_000]), '1h 30s');
});
