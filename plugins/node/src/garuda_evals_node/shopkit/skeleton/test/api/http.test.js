import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ok, created, noContent, errorResponse, parseUrl, jsonBody } from '../../src/api/http.js';
import { ValidationError, NotFoundError } from '../../src/util/errors.js';

test('response helpers', () => {
  assert.deepEqual(ok({ a: 1 }), { status: 200, body: { a: 1 } });
  assert.equal(created({}).status, 201);
  assert.deepEqual(noContent(), { status: 204, body: null });
});

test('errors become responses', () => {
  assert.deepEqual(errorResponse(new ValidationError('sku is required', 'sku')), {
    status: 400,
    body: { error: { code: 'invalid', message: 'sku is required', field: 'sku' } },
  });
  assert.equal(errorResponse(new NotFoundError('order', 'ord_0001')).status, 404);
  assert.equal(errorResponse(new TypeError('boom')).status, 500);
});

test('parseUrl and jsonBody', () => {
  assert.deepEqual(parseUrl('/products?page=2&category=office'), { path: '/products', query: { page: '2', category: 'office' } });
  assert.deepEqual(parseUrl('/products'), { path: '/products', query: {} });
  assert.throws(() => jsonBody(null), { status: 400 });
  assert.throws(() => jsonBody([1]), { code: 'invalid-body' });
});
