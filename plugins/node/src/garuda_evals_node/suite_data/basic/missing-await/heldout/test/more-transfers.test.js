import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store } from '../src/store.js';
import { open, transfer, InsufficientFunds } from '../src/bank.js';

async function accounts() {
  const store = new Store();
  await open(store, 'carol', 50);
  await open(store, 'dave', 0);
  return store;
}

test('two transfers in a row', async () => {
  const store = await accounts();
  await transfer(store, 'carol', 'dave', 20);
  await transfer(store, 'dave', 'carol', 5);
  assert.deepEqual([await store.get('carol'), await store.get('dave')], [35, 15]);
});

test('the whole balance may be sent', async () => {
  const store = await accounts();
  await transfer(store, 'carol', 'dave', 50);
  assert.deepEqual([await store.get('carol'), await store.get('dave')], [0, 50]);
});

test('a refusal names the account, its balance and the amount', async () => {
  const store = await accounts();
  await assert.rejects(transfer(store, 'carol', 'dave', 51), {
    name: 'InsufficientFunds',
    message: 'account carol has 50, cannot send 51',
  });
});

test('an empty account cannot send', async () => {
  const store = await accounts();
  await assert.rejects(transfer(store, 'dave', 'carol', 1), InsufficientFunds);
  assert.deepEqual(store.writes(), [['carol', 50], ['dave', 0]]);
});
