import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wrapText, wrapParagraph } from '../src/wrap.js';

test('short text stays on one line', () => {
  assert.deepEqual(wrapText('hello world', 20), ['hello world']);
});

test('greedy wrapping', () => {
  assert.deepEqual(wrapText('the quick brown fox jumps over the lazy dog', 10), [
    'the quick', 'brown fox', 'jumps over', 'the lazy', 'dog',
  ]);
});

test('a line may be exactly width long', () => {
  assert.deepEqual(wrapText('abcde fghij', 5), ['abcde', 'fghij']);
  assert.deepEqual(wrapText('ab cd ef', 5), ['ab cd', 'ef']);
});

test('long words get their own line', () => {
  assert.deepEqual(wrapText('a supercalifragilistic b', 6), ['a', 'supercalifragilistic', 'b']);
});

test('whitespace runs and newlines collapse', () => {
  assert.deepEqual(wrapText('  one\n\ttwo   three  ', 8), ['one two', 'three']);
});

test('blank input gives no lines', () => {
  assert.deepEqual(wrapText('   ', 5), []);
});

test('width must be a positive integer', () => {
  assert.throws(() => wrapText('x', 0), RangeError);
  assert.throws(() => wrapText('x', 2.5), RangeError);
});

test('wrapParagraph joins with newlines', () => {
  assert.equal(wrapParagraph('aa bb cc', 5), 'aa bb\ncc');
});
