import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../src/config.js';
import { planRequest } from '../src/client.js';

test('the default timeout', () => {
  assert.equal(loadConfig({ retries: 1 }).timeoutMs, 5000);
});

test('explicit zero and false with the other defaults', () => {
  assert.deepEqual({ ...loadConfig({ verbose: false, retries: 0 }) }, {
    baseUrl: 'http://localhost:8080', retries: 0, verbose: false,
    userAgent: 'basic-client/1.0', timeoutMs: 5000,
  });
});

test('one attempt has the default timeout as its deadline', () => {
  assert.equal(planRequest('/a', { retries: 0 }).deadlineMs, 5000);
});

test('an undefined timeout is the default', () => {
  assert.equal(loadConfig({ timeoutMs: undefined, baseUrl: '' }).timeoutMs, 5000);
});
