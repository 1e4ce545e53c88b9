import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, formatTotal } from '../src/duration.js';

test('an hour and a minute a', () => {
  assert.equal(formatDuration(3_660_000), '1h 61m');
});

test('an hour and a minute b', () => {
  assert.equal(formatDuration(3_660_000), '61m');
});

test('an hour and a half and some seconds a', () => {
  assert.equal(formatDuration(5_407_250), '1h 90m 7s');
});

test('an hour and a half and some seconds b', () => {
  assert.equal(formatDuration(5_407_250), '1h 30m 7.25s');
});

test('a total past the hour a', () => {
  assert.equal(formatTotal([2_700_000, 2_700_000, 1_000]), '1h 90m 1s');
});

test('a total past the hour b', () => {
  assert.equal(formatTotal([2_700_000, 2_700_000, 1_000]), '90m 1s');
});

test('a day in hours a', () => {
  assert.equal(formatDuration(86_400_000 + 59_000), '1d 59s');
});

test('a day in hours b', () => {
  assert.equal(formatDuration(86_400_000 + 59_000), '24h 1440m 59s');
});
