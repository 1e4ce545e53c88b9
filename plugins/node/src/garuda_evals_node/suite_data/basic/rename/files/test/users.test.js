import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getUserName } from '../src/users.js';
import { greet, formalGreeting } from '../src/greeting.js';
import { userReport } from '../src/report.js';

test('getUserName prefers the nickname', () => {
  assert.equal(getUserName(2), 'Amazing Grace');
  assert.equal(getUserName(1), 'Ada Lovelace');
});

test('formal names ignore the nickname', () => {
  assert.equal(getUserName(2, { formal: true }), 'Grace Hopper');
});

test('unknown users throw', () => {
  assert.throws(() => getUserName(99), /no user 99/);
});

test('greetings use the shown name', () => {
  assert.equal(greet(3, 9), 'Good morning, Alan Turing!');
  assert.equal(greet(2, 20), 'Good evening, Amazing Grace!');
  assert.equal(formalGreeting(2), 'Dear Grace Hopper,');
});

test('the report is sorted by name', () => {
  assert.equal(userReport(), '#1 Ada Lovelace\n#3 Alan Turing\n#2 Amazing Grace');
});
