// The dead-code check of the unused task, by syntax tree: every function in the project's
// code (all .js outside test/) must be one the reference solution keeps, and each kept one
// must still be there. A function is its name (declaration, variable, method or property)
// with its syntax tree (positions, comments and quoting left out), so renaming dead code,
// moving it or turning it into another kind of function is still found.
//
// Usage: node --expose-internals test/hard/dead-code.cjs '<expected JSON>'   (check)
//        node --expose-internals test/hard/dead-code.cjs                     (print)
// The expected JSON maps each file to "<number of functions>:<hash of their trees>".
'use strict';
const { createHash } = require('node:crypto');
const { readFileSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

let acorn;
try {
  acorn = require('internal/deps/acorn/acorn/dist/acorn');
} catch {
  console.log('this node has no built-in JavaScript parser (run it with --expose-internals)');
  process.exit(2);
}

const SKIPPED = new Set(['test', 'node_modules', '.git', '.garuda-check']);
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
const DROPPED = new Set(['start', 'end', 'loc', 'range', 'raw']);

function sources(folder, prefix = '') {
  const found = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory() && !SKIPPED.has(relative)) found.push(...sources(join(folder, entry.name), relative));
    else if (!entry.isDirectory() && /\.(c|m)?js$/.test(entry.name)) found.push(relative);
  }
  return found.sort();
}

const canonical = (node) =>
  JSON.stringify(node, (key, value) => (DROPPED.has(key) ? undefined : typeof value === 'bigint' ? `${value}n` : value));

function nameOf(holder) {
  const key = holder?.key ?? holder?.id;
  if (!key) return '';
  return key.type === 'Identifier' || key.type === 'PrivateIdentifier' ? key.name : canonical(key);
}

// One entry per function at any depth: its name where it has one, and its whole tree.
function functions(node, holder, found) {
  if (Array.isArray(node)) {
    for (const item of node) functions(item, holder, found);
    return found;
  }
  if (!node || typeof node.type !== 'string') return found;
  if (FUNCTIONS.has(node.type)) {
    const name = node.id?.name ?? nameOf(holder);
    found.push(createHash('sha256').update(`${name}\n${canonical(node)}`).digest('hex'));
  }
  for (const [key, value] of Object.entries(node)) {
    if (value && typeof value === 'object' && !DROPPED.has(key)) functions(value, node, found);
  }
  return found;
}

function inventory(path) {
  const text = readFileSync(path, 'utf8');
  let tree;
  try {
    tree = acorn.parse(text, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true });
  } catch (error) {
    return `unparsable: ${error.message}`;
  }
  const found = functions(tree.body, null, []).sort();
  return `${found.length}:${createHash('sha256').update(found.join('\n')).digest('hex').slice(0, 16)}`;
}

const actual = Object.fromEntries(sources('.').map((path) => [path, inventory(path)]));
if (process.argv.length < 3) {
  console.log(JSON.stringify(actual));
  process.exit(0);
}
const expected = JSON.parse(process.argv[2]);
const problems = [];
for (const [path, found] of Object.entries(actual)) {
  const count = found.split(':')[0];
  if (found.startsWith('unparsable')) problems.push(`${path} is ${found}`);
  else if (!(path in expected)) problems.push(`dead code left: ${path} (${count} functions) is not needed`);
  else if (found !== expected[path]) {
    const want = expected[path].split(':')[0];
    const how = Number(count) > Number(want) ? 'dead code left' : Number(count) < Number(want) ? 'used code deleted' : 'functions changed';
    problems.push(`${how}: ${path} has ${count} functions where ${want} are expected`);
  }
}
for (const path of Object.keys(expected)) {
  if (!(path in actual)) problems.push(`used code deleted: ${path} is gone`);
}
for (const problem of problems) console.log(problem);
process.exit(problems.length ? 1 : 0);
