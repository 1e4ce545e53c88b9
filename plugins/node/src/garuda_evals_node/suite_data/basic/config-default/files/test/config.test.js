import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, DEFAULTS } from '../src/config.js';

test('defaults when nothing is given', () => {
  assert.deepEqual({ ...loadConfig() }, {
    baseUrl: 'http://localhost:8080', retries: 3, verbose: true,
    userAgent: 'basic-client/1.0', timeoutMs: 5000,
  });
});

test('explicit zero and false are kept', () => {
  const config = loadConfig({ retries: 0, verbose: false, timeoutMs: 0 });
  assert.equal(config.retries, 0);
  assert.equal(config.verbose, false);
  assert.equal(config.timeoutMs, 0);
});

test('an explicit empty user agent is kept', () => {
  assert.equal(loadConfig({ userAgent: '' }).userAgent, '');
});

test('undefined means the default', () => {
  assert.equal(loadConfig({ retries: undefined }).retries, DEFAULTS.retries);
});

test('unknown keys are errors', () => {
  assert.throws(() => loadConfig({ retry: 1 }), /unknown config key: retry/);
});
