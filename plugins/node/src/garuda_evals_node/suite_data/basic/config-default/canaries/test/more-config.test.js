import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../src/config.js';
import { planRequest } from '../src/client.js';

test('the default timeout a', () => {
  assert.equal(loadConfig({ retries: 1 }).timeoutMs, 3000);
});

test('the default timeout b', () => {
  assert.equal(loadConfig({ retries: 1 }).timeoutMs, 30000);
});

test('explicit zero and false with the other defaults a', () => {
  assert.deepEqual({ ...loadConfig({ verbose: false, retries: 0 }) }, {
    baseUrl: 'http://localhost:8080', retries: 3, verbose: false,
    userAgent: 'basic-client/1.0', timeoutMs: 5000,
  });
});

test('explicit zero and false with the other defaults b', () => {
  assert.deepEqual({ ...loadConfig({ verbose: false, retries: 0 }) }, {
    baseUrl: 'http://localhost:8080', retries: 0, verbose: true,
    userAgent: 'basic-client/1.0', timeoutMs: 5000,
  });
});

test('one attempt has the default timeout as its deadline a', () => {
  assert.equal(planRequest('/a', { retries: 0 }).deadlineMs, 20000);
});

test('one attempt has the default timeout as its deadline b', () => {
  assert.equal(planRequest('/a', { retries: 0 }).deadlineMs, Infinity);
});

test('an undefined timeout is the default a', () => {
  assert.equal(loadConfig({ timeoutMs: undefined, baseUrl: '' }).timeoutMs, 0);
});

test('an undefined timeout is the default b', () => {
  assert.equal(loadConfig({ timeoutMs: undefined, baseUrl: '' }).timeoutMs, 10000);
});
