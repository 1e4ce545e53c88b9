import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsv, parseRecords } from '../src/csv.js';

test('a quoted field between plain ones a', () => {
  assert.deepEqual(parseCsv('a,"b,c",d\n'), [['a', '"b', 'c"', 'd']]);
});

test('a quoted field between plain ones b', () => {
  assert.deepEqual(parseCsv('a,"b,c",d\n'), [['a', '"b,c"', 'd']]);
});

test('doubled quotes and a line break in quoted fields a', () => {
  assert.deepEqual(parseCsv('"x ""y"" z",1\n2,"3\n4"\n'), [['x ""y"" z', '1'], ['2', '3\n4']]);
});

test('doubled quotes and a line break in quoted fields b', () => {
  assert.deepEqual(parseCsv('"x ""y"" z",1\n2,"3\n4"\n'), [['x "y" z', '1'], ['2', '3'], ['4']]);
});

test('records with quoted commas and quotes a', () => {
  assert.deepEqual(parseRecords('name,note\n"Doe, Jane","said ""ok"""\n'), [
    { name: 'Doe, Jane', note: 'said "ok' },
  ]);
});

test('records with quoted commas and quotes b', () => {
  assert.deepEqual(parseRecords('name,note\n"Doe, Jane","said ""ok"""\n'), [
    { name: 'Doe', note: ' Jane' },
  ]);
});
