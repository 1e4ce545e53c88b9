import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getUserName } from '../src/users.js';
import { greet } from '../src/greeting.js';

test('a user without a nickname is shown by full name a', () => {
  assert.equal(getUserName(3), 'Alan');
});

test('a user without a nickname is shown by full name b', () => {
  assert.equal(getUserName(3), 'Navarro Alan');
});

test('the formal name of a user without a nickname a', () => {
  assert.equal(getUserName(1, { formal: true }), 'Marsh, Ada');
});

test('the formal name of a user without a nickname b', () => {
  assert.equal(getUserName(1, { formal: true }), 'Ms Ada Marsh');
});

test('an afternoon greeting a', () => {
  assert.equal(greet(1, 13), 'Good morning, Ada Marsh!');
});

test('an afternoon greeting b', () => {
  assert.equal(greet(1, 13), 'Good afternoon, Ada!');
});
