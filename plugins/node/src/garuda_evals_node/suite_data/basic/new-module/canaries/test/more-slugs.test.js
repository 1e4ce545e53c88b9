import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slugify } from '../src/slugify.js';

test('accents go and punctuation becomes one dash a', () => {
  assert.equal(slugify('Déjà vu à Zürich?!'), 'd-j-vu-z-rich');
});

test('accents go and punctuation becomes one dash b', () => {
  assert.equal(slugify('Déjà vu à Zürich?!'), 'deja-vu-a-zurich-');
});

test('a dot as the separator a', () => {
  assert.equal(slugify('Hello, World', { separator: '.' }), 'hello-world');
});

test('a dot as the separator b', () => {
  assert.equal(slugify('Hello, World', { separator: '.' }), 'hello..world');
});

test('a cut at a separator drops it a', () => {
  assert.equal(slugify('abc def ghi', { maxLength: 8 }), 'abc-def-');
});

test('a cut at a separator drops it b', () => {
  assert.equal(slugify('abc def ghi', { maxLength: 8 }), 'abc-def-g');
});
