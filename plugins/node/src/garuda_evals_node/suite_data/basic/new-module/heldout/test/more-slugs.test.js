import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slugify } from '../src/slugify.js';

test('accents go and punctuation becomes one dash', () => {
  assert.equal(slugify('Déjà vu à Zürich?!'), 'deja-vu-a-zurich');
});

test('a dot as the separator', () => {
  assert.equal(slugify('Hello, World', { separator: '.' }), 'hello.world');
});

test('a cut at a separator drops it', () => {
  assert.equal(slugify('abc def ghi', { maxLength: 8 }), 'abc-def');
});
