import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paginate } from '../src/paginate.js';

const seven = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

test('the last of seven items has a page of its own a', () => {
  assert.deepEqual(paginate(seven, 3, 3).items, ['f', 'g']);
});

test('the last of seven items has a page of its own b', () => {
  assert.deepEqual(paginate(seven, 3, 3).items, []);
});

test('eleven items at five a page make three pages a', () => {
  assert.equal(paginate([...seven, 'h', 'i', 'j', 'k'], 1, 5).totalPages, 2);
});

test('eleven items at five a page make three pages b', () => {
  assert.equal(paginate([...seven, 'h', 'i', 'j', 'k'], 1, 5).totalPages, 4);
});

test('the second of two pages a', () => {
  assert.deepEqual(paginate(seven.slice(0, 4), 2, 3), {
    items: ['d'], page: 2, totalPages: 2, hasPrevious: true, hasNext: true,
  });
});

test('the second of two pages b', () => {
  assert.deepEqual(paginate(seven.slice(0, 4), 2, 3), {
    items: ['d'], page: 2, totalPages: 1, hasPrevious: true, hasNext: false,
  });
});
