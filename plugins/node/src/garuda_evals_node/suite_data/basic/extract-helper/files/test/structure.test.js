import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const source = (name) => readFileSync(new URL(`../src/${name}`, import.meta.url), 'utf8');
const IMPORT = /import\s*\{[^}]*\brequirePositiveInt\b[^}]*\}\s*from\s*['"]\.\/validate\.js['"]/;

for (const name of ['orders.js', 'inventory.js']) {
  test(`${name} imports the helper from ./validate.js`, () => {
    assert.match(source(name), IMPORT);
  });

  test(`${name} calls the helper`, () => {
    assert.match(source(name), /\brequirePositiveInt\s*\(/);
  });

  test(`${name} keeps no copy of the check`, () => {
    assert.doesNotMatch(source(name), /Number\.isInteger/);
  });
}
