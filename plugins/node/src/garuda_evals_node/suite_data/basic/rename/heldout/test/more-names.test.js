import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getUserName } from '../src/users.js';
import { greet } from '../src/greeting.js';

test('a user without a nickname is shown by full name', () => {
  assert.equal(getUserName(3), 'Alan Navarro');
});

test('the formal name of a user without a nickname', () => {
  assert.equal(getUserName(1, { formal: true }), 'Ada Marsh');
});

test('an afternoon greeting', () => {
  assert.equal(greet(1, 13), 'Good afternoon, Ada Marsh!');
});
