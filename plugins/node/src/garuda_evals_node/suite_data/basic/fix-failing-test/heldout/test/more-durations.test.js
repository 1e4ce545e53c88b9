import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, formatTotal } from '../src/duration.js';

test('an hour and a minute', () => {
  assert.equal(formatDuration(3_660_000), '1h 1m');
});

test('an hour and a half and some seconds', () => {
  assert.equal(formatDuration(5_407_250), '1h 30m 7s');
});

test('a total past the hour', () => {
  assert.equal(formatTotal([2_700_000, 2_700_000, 1_000]), '1h 30m 1s');
});

test('a day in hours', () => {
  assert.equal(formatDuration(86_400_000 + 59_000), '24h 59s');
});
