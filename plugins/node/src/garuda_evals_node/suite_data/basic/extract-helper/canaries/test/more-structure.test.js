import { test } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';

const KEY = 'extract-helper.held-out.stand-in';
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

const control = {
  mode: 'real',
  calls: [],
  call(real, value, name) {
    this.calls.push([value, name]);
    return this.mode === 'accept' ? value : real(value, name);
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

test('orders.js checks both numbers through the helper a', () => {
  control.reset('real');
  createOrder('B', 4, 125);
  assert.deepEqual(control.calls, [[4, 'quantity']]);
});

test('orders.js checks both numbers through the helper b', () => {
  control.reset('real');
  createOrder('B', 4, 125);
  assert.deepEqual(control.calls, [[125, 'unitCents'], [4, 'quantity']]);
});

test('orders.js takes what the helper accepts a', () => {
  control.reset('accept');
  assert.equal(createOrder('B', 0, 125).totalCents, 125);
});

test('orders.js takes what the helper accepts b', () => {
  control.reset('accept');
  assert.equal(createOrder('B', 0, 125).totalCents, 500);
});

test('inventory.js takes what the helper accepts a', () => {
  control.reset('accept');
  const inventory = new Inventory();
  assert.equal(inventory.restock('B', -3), 3);
});

test('inventory.js takes what the helper accepts b', () => {
  control.reset('accept');
  const inventory = new Inventory();
  assert.equal(inventory.restock('B', -3), 0);
});
