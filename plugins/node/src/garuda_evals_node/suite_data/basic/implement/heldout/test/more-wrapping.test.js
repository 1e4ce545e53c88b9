import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wrapText, wrapParagraph } from '../src/wrap.js';

test('each line takes as many words as fit', () => {
  assert.deepEqual(wrapText('a bb ccc dddd', 6), ['a bb', 'ccc', 'dddd']);
});

test('tabs and line breaks separate words, and a line may be exactly width long', () => {
  assert.deepEqual(wrapText('tab\tsep\nline', 7), ['tab sep', 'line']);
});

test('a paragraph is joined with newlines', () => {
  assert.equal(wrapParagraph('one two three four', 9), 'one two\nthree\nfour');
});

test('a word longer than the width is not split', () => {
  assert.deepEqual(wrapText('hi incomprehensibilities ok', 5), ['hi', 'incomprehensibilities', 'ok']);
});
