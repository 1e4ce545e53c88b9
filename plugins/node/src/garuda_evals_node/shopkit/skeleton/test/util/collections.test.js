import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupBy, indexBy, sumBy, sortBy } from '../../src/util/collections.js';

const items = [
  { id: 'a', kind: 'pen', cents: 100 },
  { id: 'b', kind: 'ink', cents: 250 },
  { id: 'c', kind: 'pen', cents: 100 },
];

test('groupBy keeps first-appearance order', () => {
  const groups = groupBy(items, (i) => i.kind);
  assert.deepEqual([...groups.keys()], ['pen', 'ink']);
  assert.equal(groups.get('pen').length, 2);
});

test('indexBy rejects duplicates', () => {
  assert.equal(indexBy(items, (i) => i.id).get('b').kind, 'ink');
  assert.throws(() => indexBy(items, (i) => i.kind), /duplicate key pen/);
});

test('sumBy and a stable sortBy', () => {
  assert.equal(sumBy(items, (i) => i.cents), 450);
  assert.deepEqual(sortBy(items, (i) => i.cents).map((i) => i.id), ['a', 'c', 'b']);
  assert.deepEqual(sortBy(items, (i) => i.cents, 'desc').map((i) => i.id), ['b', 'a', 'c']);
});
