import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createOrder } from '../src/orders.js';
import { Inventory } from '../src/inventory.js';

test('orders total their lines', () => {
  assert.equal(createOrder('A', 3, 250).totalCents, 750);
});

test('orders keep their error messages', () => {
  assert.throws(() => createOrder('A', 0, 250), { name: 'RangeError', message: 'quantity must be positive, got 0' });
  assert.throws(() => createOrder('A', 2, 9.99), { name: 'TypeError', message: 'unitCents must be an integer, got 9.99' });
});

test('inventory restocks and takes', () => {
  const inventory = new Inventory();
  assert.equal(inventory.restock('A', 5), 5);
  assert.equal(inventory.take('A', 2), 3);
  assert.throws(() => inventory.take('A', 4), /only 3 of A in stock/);
});

test('inventory keeps its error messages', () => {
  const inventory = new Inventory();
  assert.throws(() => inventory.restock('A', -1), { name: 'RangeError', message: 'quantity must be positive, got -1' });
  assert.throws(() => inventory.take('A', '1'), { name: 'TypeError', message: 'quantity must be an integer, got 1' });
});
