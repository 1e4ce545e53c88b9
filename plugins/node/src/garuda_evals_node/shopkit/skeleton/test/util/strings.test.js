import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slugify, titleCase, truncate, fillTemplate } from '../../src/util/strings.js';

test('slugify', () => {
  assert.equal(slugify('Crème Brûlée!'), 'creme-brulee');
  assert.equal(slugify('  Office & Desk  '), 'office-desk');
});

test('titleCase and truncate', () => {
  assert.equal(titleCase('hello big world'), 'Hello Big World');
  assert.equal(truncate('short', 10), 'short');
  assert.equal(truncate('a long sentence here', 8), 'a long…');
});

test('fillTemplate', () => {
  assert.equal(fillTemplate('Hi {name}, {n} items', { name: 'Ada', n: 2 }), 'Hi Ada, 2 items');
  assert.throws(() => fillTemplate('{missing}', {}), /missing/);
});
