import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paginate, pageOf } from '../src/paginate.js';

const ten = Array.from({ length: 10 }, (_, i) => i + 1);

test('first page', () => {
  assert.deepEqual(paginate(ten, 1, 3), {
    items: [1, 2, 3], page: 1, totalPages: 4, hasPrevious: false, hasNext: true,
  });
});

test('a short last page is a page', () => {
  const last = paginate(ten, 4, 3);
  assert.deepEqual(last.items, [10]);
  assert.equal(last.hasNext, false);
});

test('exact multiples have no extra page', () => {
  assert.equal(paginate(ten, 1, 5).totalPages, 2);
  assert.throws(() => paginate(ten, 3, 5), RangeError);
});

test('an empty list has one empty page', () => {
  assert.deepEqual(paginate([], 1, 3).items, []);
  assert.equal(paginate([], 1, 3).totalPages, 1);
});

test('page zero is out of range', () => {
  assert.throws(() => paginate(ten, 0, 3), RangeError);
});

test('pageOf agrees with paginate', () => {
  for (const index of [0, 2, 3, 9]) {
    assert.ok(paginate(ten, pageOf(index, 3), 3).items.includes(ten[index]));
  }
});
