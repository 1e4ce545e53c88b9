import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCsv, parseCsv } from '../../src/util/csv.js';

test('toCsv quotes what needs quotes', () => {
  const text = toCsv([{ a: 'x, y', b: 'say "hi"' }, { a: 1, b: null }], [['a', (r) => r.a], ['b', (r) => r.b]]);
  assert.equal(text, 'a,b\n"x, y","say ""hi"""\n1,\n');
});

test('parseCsv reads what toCsv writes', () => {
  const rows = [{ a: 'multi\nline', b: 'q"uote' }];
  assert.deepEqual(parseCsv(toCsv(rows, [['a', (r) => r.a], ['b', (r) => r.b]])), [
    ['a', 'b'], ['multi\nline', 'q"uote'],
  ]);
});

test('parseCsv handles CRLF and unterminated quotes', () => {
  assert.deepEqual(parseCsv('a,b\r\n1,2\r\n'), [['a', 'b'], ['1', '2']]);
  assert.throws(() => parseCsv('"open'), SyntaxError);
});
