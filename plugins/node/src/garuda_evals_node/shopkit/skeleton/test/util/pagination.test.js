import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paginate, parsePageQuery, DEFAULT_PER_PAGE } from '../../src/util/pagination.js';

test('parsePageQuery defaults and limits', () => {
  assert.deepEqual(parsePageQuery({}), { page: 1, perPage: DEFAULT_PER_PAGE });
  assert.deepEqual(parsePageQuery({ page: '2', perPage: '5' }), { page: 2, perPage: 5 });
  assert.throws(() => parsePageQuery({ page: '0' }), /page must be/);
  assert.throws(() => parsePageQuery({ perPage: '1000' }), /perPage must be/);
});

test('paginate counts a short last page', () => {
  const items = Array.from({ length: 7 }, (_, i) => i);
  assert.deepEqual(paginate(items, { page: 3, perPage: 3 }), {
    items: [6], page: 3, perPage: 3, total: 7, totalPages: 3,
  });
  assert.equal(paginate([], { page: 1, perPage: 3 }).totalPages, 1);
});
