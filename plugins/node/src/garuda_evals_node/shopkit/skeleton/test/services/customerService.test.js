import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop } from '../helpers.js';

test('emails register once, whatever their case', () => {
  const { services } = makeShop();
  assert.throws(() => services.customers.register({ email: 'ADA@example.com', $NAME$: 'Other Ada' }), { code: 'duplicate-email' });
  assert.equal(services.customers.findByEmail('Ada@Example.com').$NAME$, 'Ada Marsh');
});

test('first names for greetings', () => {
  const { services, ada } = makeShop();
  assert.equal(services.customers.firstName(ada), 'Ada');
});

test('addresses belong to their customer', () => {
  const { services, ada, home } = makeShop();
  const bob = services.customers.register({ email: 'bob@example.com', $NAME$: 'Bob Stone' });
  assert.equal(services.customers.getAddress(ada.id, home.id).region, 'CA');
  assert.throws(() => services.customers.getAddress(bob.id, home.id), { status: 404 });
  assert.deepEqual(services.customers.listAddresses(ada.id).map((a) => a.id), [home.id]);
});
