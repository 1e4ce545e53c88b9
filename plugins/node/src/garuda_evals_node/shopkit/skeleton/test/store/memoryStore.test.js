import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../../src/store/memoryStore.js';
import { ConflictError, NotFoundError } from '../../src/util/errors.js';

test('insert, get, find and list in order', () => {
  const store = new MemoryStore('thing');
  store.insert({ id: 'b', n: 2 });
  store.insert({ id: 'a', n: 1 });
  assert.equal(store.get('a').n, 1);
  assert.equal(store.find('zz'), undefined);
  assert.deepEqual(store.list().map((r) => r.id), ['b', 'a']);
  assert.deepEqual(store.list((r) => r.n > 1).map((r) => r.id), ['b']);
  assert.equal(store.findOne((r) => r.n === 1).id, 'a');
  assert.equal(store.count(), 2);
});

test('duplicates and missing records', () => {
  const store = new MemoryStore('thing');
  store.insert({ id: 'a' });
  assert.throws(() => store.insert({ id: 'a' }), ConflictError);
  assert.throws(() => store.get('b'), NotFoundError);
  assert.throws(() => store.replace({ id: 'b' }), /thing b not found/);
});

test('replace and remove', () => {
  const store = new MemoryStore('thing');
  store.insert({ id: 'a', n: 1 });
  store.replace({ id: 'a', n: 5 });
  assert.equal(store.get('a').n, 5);
  store.remove('a');
  assert.equal(store.count(), 0);
});
