import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planRequest } from '../src/client.js';

test('a request with the defaults', () => {
  const plan = planRequest('/items');
  assert.equal(plan.url, 'http://localhost:8080/items');
  assert.equal(plan.attempts, 4);
  assert.equal(plan.deadlineMs, 20000);
  assert.deepEqual(plan.log, ['GET /items (4 attempt(s))']);
});

test('no retries and no logging', () => {
  const plan = planRequest('/items', { retries: 0, verbose: false });
  assert.equal(plan.attempts, 1);
  assert.deepEqual(plan.log, []);
});

test('a zero timeout means no deadline', () => {
  assert.equal(planRequest('/x', { timeoutMs: 0 }).deadlineMs, Infinity);
});
