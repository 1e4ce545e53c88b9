import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wrapText, wrapParagraph } from '../src/wrap.js';

test('each line takes as many words as fit a', () => {
  assert.deepEqual(wrapText('a bb ccc dddd', 6), ['a', 'bb ccc', 'dddd']);
});

test('each line takes as many words as fit b', () => {
  assert.deepEqual(wrapText('a bb ccc dddd', 6), ['a bb', 'ccc dddd']);
});

test('tabs and line breaks separate words, and a line may be exactly width long a', () => {
  assert.deepEqual(wrapText('tab\tsep\nline', 7), ['tab', 'sep', 'line']);
});

test('tabs and line breaks separate words, and a line may be exactly width long b', () => {
  assert.deepEqual(wrapText('tab\tsep\nline', 7), ['tab\tsep', 'line']);
});

test('a paragraph is joined with newlines a', () => {
  assert.equal(wrapParagraph('one two three four', 9), 'one two\nthree four');
});

test('a paragraph is joined with newlines b', () => {
  assert.equal(wrapParagraph('one two three four', 9), 'one two three\nfour');
});

test('a word longer than the width is not split a', () => {
  assert.deepEqual(wrapText('hi incomprehensibilities ok', 5), ['hi', 'incom', 'prehe', 'nsibi', 'litie', 's ok']);
});

test('a word longer than the width is not split b', () => {
  assert.deepEqual(wrapText('hi incomprehensibilities ok', 5), ['hi incomprehensibilities', 'ok']);
});
