import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixedClock, isPast, DAY_MS } from '../../src/util/clock.js';

test('a fixed clock moves only when told', () => {
  const clock = fixedClock('2024-01-01T00:00:00Z');
  assert.equal(clock.now().toISOString(), '2024-01-01T00:00:00.000Z');
  clock.advance(DAY_MS);
  assert.equal(clock.now().toISOString(), '2024-01-02T00:00:00.000Z');
  clock.set('2030-01-01T00:00:00Z');
  assert.equal(clock.now().getUTCFullYear(), 2030);
});

test('isPast', () => {
  const clock = fixedClock('2024-06-01T00:00:00Z');
  assert.ok(isPast(clock, '2024-05-31T23:59:59Z'));
  assert.ok(!isPast(clock, '2024-06-01T00:00:00Z'));
});
