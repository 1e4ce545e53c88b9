import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getUserName } from '../src/users.js';
import { greet, formalGreeting } from '../src/greeting.js';
import { userReport } from '../src/report.js';

test('getUserName prefers the nickname', () => {
  assert.equal(getUserName(2), 'Amazing Greta');
  assert.equal(getUserName(1), 'Ada Marsh');
});

test('formal names ignore the nickname', () => {
  assert.equal(getUserName(2, { formal: true }), 'Greta Okafor');
});

test('unknown users throw', () => {
  assert.throws(() => getUserName(99), /no user 99/);
});

test('greetings use the shown name', () => {
  assert.equal(greet(3, 9), 'Good morning, Alan Navarro!');
  assert.equal(greet(2, 20), 'Good evening, Amazing Greta!');
  assert.equal(formalGreeting(2), 'Dear Greta Okafor,');
});

test('the report is sorted by name', () => {
  assert.equal(userReport(), '#1 Ada Marsh\n#3 Alan Navarro\n#2 Amazing Greta');
});
