import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store } from '../src/store.js';
import { open, transfer, total, InsufficientFunds } from '../src/bank.js';

async function bank() {
  const store = new Store();
  await open(store, 'alice', 100);
  await open(store, 'bob', 20);
  return store;
}

test('a transfer moves money', async () => {
  const store = await bank();
  await transfer(store, 'alice', 'bob', 30);
  assert.equal(await store.get('alice'), 70);
  assert.equal(await store.get('bob'), 50);
});

test('the transfer is complete when the promise resolves', async () => {
  const store = await bank();
  await transfer(store, 'bob', 'alice', 20);
  assert.deepEqual(store.writes().slice(-2), [['bob', 0], ['alice', 120]]);
});

test('money is neither made nor lost', async () => {
  const store = await bank();
  await transfer(store, 'alice', 'bob', 55);
  assert.equal(await total(store, ['alice', 'bob']), 120);
});

test('short funds are refused and nothing changes', async () => {
  const store = await bank();
  await assert.rejects(transfer(store, 'bob', 'alice', 21), InsufficientFunds);
  assert.equal(await store.get('bob'), 20);
  assert.equal(await store.get('alice'), 100);
});

test('unknown accounts are rejected', async () => {
  const store = await bank();
  await assert.rejects(transfer(store, 'carol', 'bob', 1), /unknown account carol/);
});

test('amounts must be positive', async () => {
  const store = await bank();
  await assert.rejects(transfer(store, 'alice', 'bob', 0), RangeError);
});
