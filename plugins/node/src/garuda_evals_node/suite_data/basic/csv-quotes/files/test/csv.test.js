import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsv, parseRecords } from '../src/csv.js';

test('plain fields', () => {
  assert.deepEqual(parseCsv('a,b,c\n1,2,3\n'), [['a', 'b', 'c'], ['1', '2', '3']]);
});

test('CRLF line ends and empty fields', () => {
  assert.deepEqual(parseCsv('a,,c\r\n,,\r\n'), [['a', '', 'c'], ['', '', '']]);
});

test('a quoted field may hold commas', () => {
  assert.deepEqual(parseCsv('name,city\n"Smith, John",Paris\n'), [
    ['name', 'city'], ['Smith, John', 'Paris'],
  ]);
});

test('doubled quotes inside quotes are one quote', () => {
  assert.deepEqual(parseCsv('"say ""hi""",x\n'), [['say "hi"', 'x']]);
});

test('a quoted field may hold a line break', () => {
  assert.deepEqual(parseCsv('id,note\n1,"two\nlines"\n2,ok\n'), [
    ['id', 'note'], ['1', 'two\nlines'], ['2', 'ok'],
  ]);
});

test('an empty quoted field', () => {
  assert.deepEqual(parseCsv('"",a\n'), [['', 'a']]);
});

test('records keep quoted commas in one field', () => {
  const text = 'sku,title,price\nA1,"Pens, blue",2.50\nB2,"12"" ruler",1.20\n';
  assert.deepEqual(parseRecords(text), [
    { sku: 'A1', title: 'Pens, blue', price: '2.50' },
    { sku: 'B2', title: '12" ruler', price: '1.20' },
  ]);
});

test('a row with the wrong field count is an error', () => {
  assert.throws(() => parseRecords('a,b\n1,2,3\n'), SyntaxError);
});
