import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Router } from '../../src/api/router.js';
import { ConflictError } from '../../src/util/errors.js';

function router() {
  return new Router()
    .get('/things/:id', ({ params, query }) => ({ status: 200, body: { id: params.id, query } }))
    .post('/things', ({ body }) => ({ status: 201, body }))
    .get('/boom', () => {
      throw new ConflictError('no way');
    });
}

test('params and query', () => {
  assert.deepEqual(router().handle({ method: 'GET', path: '/things/a%20b?x=1' }), {
    status: 200,
    body: { id: 'a b', query: { x: '1' } },
  });
});

test('unknown paths are 404, wrong methods 405', () => {
  assert.equal(router().handle({ method: 'GET', path: '/nothing' }).status, 404);
  assert.equal(router().handle({ method: 'DELETE', path: '/things' }).status, 405);
});

test('thrown errors become responses', () => {
  assert.deepEqual(router().handle({ method: 'GET', path: '/boom' }).body, { error: { code: 'conflict', message: 'no way' } });
});

test('routes lists what is registered', () => {
  assert.deepEqual(router().routes(), ['GET /things/:id', 'POST /things', 'GET /boom']);
});
