// The modules must validate through requirePositiveInt from ./validate.js, and only
// through it. Checked by behaviour: every import of src/validate.js made by the modules
// under test is redirected to a stand-in that records its calls and, per test, passes them
// to the real helper, accepts everything, or throws its own error. A module that still
// keeps a copy of the check (however it is spelled) rejects what the stand-in accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';

const KEY = 'extract-helper.stand-in';
const VALIDATE = new URL('../src/validate.js', import.meta.url).href;
const STAND_IN =
  'data:text/javascript,' +
  encodeURIComponent(`
export * from ${JSON.stringify(VALIDATE)};
import { requirePositiveInt as real } from ${JSON.stringify(VALIDATE)};
const control = globalThis[Symbol.for(${JSON.stringify(KEY)})];
export function requirePositiveInt(value, name) {
  return control.call(real, value, name);
}
`);
const HOOKS = `
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  if (found.url === ${JSON.stringify(VALIDATE)} && context.parentURL !== ${JSON.stringify(STAND_IN)}) {
    return { url: ${JSON.stringify(STAND_IN)}, format: 'module', shortCircuit: true };
  }
  return found;
}
`;

class StandInError extends Error {}

const control = {
  mode: 'real',
  calls: [],
  call(real, value, name) {
    this.calls.push([value, name]);
    if (this.mode === 'accept') return value;
    if (this.mode === 'throw') throw new StandInError(`stand-in rejects ${value}`);
    return real(value, name);
  },
  reset(mode) {
    this.mode = mode;
    this.calls = [];
  },
};
globalThis[Symbol.for(KEY)] = control;
register('data:text/javascript,' + encodeURIComponent(HOOKS));
const { createOrder } = await import('../src/orders.js');
const { Inventory } = await import('../src/inventory.js');

test('orders.js checks quantity and unit price with requirePositiveInt from ./validate.js', () => {
  control.reset('real');
  assert.equal(createOrder('A', 3, 250).totalCents, 750);
  assert.deepEqual(control.calls, [
    [3, 'quantity'],
    [250, 'unitCents'],
  ]);
});

test('orders.js keeps no copy of the check', () => {
  control.reset('accept');
  for (const [quantity, unitCents] of [[0, 250], [2, 9.99], [-1, 5], ['2', 250], [3, 0]]) {
    assert.doesNotThrow(() => createOrder('A', quantity, unitCents), `${quantity} x ${unitCents}`);
  }
});

test("orders.js lets the helper's errors through", () => {
  control.reset('throw');
  assert.throws(() => createOrder('A', 3, 250), StandInError);
});

test('inventory.js checks quantities with requirePositiveInt from ./validate.js', () => {
  control.reset('real');
  const inventory = new Inventory();
  inventory.restock('A', 5);
  inventory.take('A', 2);
  assert.deepEqual(control.calls, [
    [5, 'quantity'],
    [2, 'quantity'],
  ]);
});

test('inventory.js keeps no copy of the check', () => {
  control.reset('accept');
  const inventory = new Inventory();
  for (const quantity of [0, -1, 1.5, '1']) {
    assert.doesNotThrow(() => inventory.restock('A', quantity), `restock ${quantity}`);
  }
  for (const quantity of [0, -1, 0.5]) {
    assert.doesNotThrow(() => inventory.take('A', quantity), `take ${quantity}`);
  }
});

test("inventory.js lets the helper's errors through", () => {
  control.reset('throw');
  const inventory = new Inventory();
  assert.throws(() => inventory.restock('A', 5), StandInError);
  assert.throws(() => inventory.take('A', 1), StandInError);
});
