import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slugify } from '../src/slugify.js';

test('lower-case words joined by dashes', () => {
  assert.equal(slugify('Hello World'), 'hello-world');
});

test('punctuation runs become one separator, none at the ends', () => {
  assert.equal(slugify('  --Rock & Roll!!  (live)  '), 'rock-roll-live');
});

test('accents are removed', () => {
  assert.equal(slugify('Crème brûlée über alles'), 'creme-brulee-uber-alles');
});

test('digits are kept', () => {
  assert.equal(slugify('Top 10 of 2024'), 'top-10-of-2024');
});

test('a custom separator', () => {
  assert.equal(slugify('a b c', { separator: '_' }), 'a_b_c');
});

test('maxLength cuts without a trailing separator', () => {
  assert.equal(slugify('alpha beta gamma', { maxLength: 11 }), 'alpha-beta');
  assert.equal(slugify('alpha beta gamma', { maxLength: 3 }), 'alp');
});

test('nothing sluggable gives an empty slug', () => {
  assert.equal(slugify('!!!'), '');
});
