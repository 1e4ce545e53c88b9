import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop, placeOrder, payOrder } from '../helpers.js';

test('reviews of bought products are verified', () => {
  const shop = makeShop();
  payOrder(shop, placeOrder(shop, [[shop.pen, 1]]));
  const bought = shop.services.reviews.add({ productId: shop.pen.id, customerId: shop.ada.id, rating: 5 });
  const notBought = shop.services.reviews.add({ productId: shop.mug.id, customerId: shop.ada.id, rating: 2, text: 'meh' });
  assert.equal(bought.verified, true);
  assert.equal(notBought.verified, false);
});

test('one review per customer and product', () => {
  const shop = makeShop();
  shop.services.reviews.add({ productId: shop.pen.id, customerId: shop.ada.id, rating: 4 });
  assert.throws(() => shop.services.reviews.add({ productId: shop.pen.id, customerId: shop.ada.id, rating: 1 }), { code: 'duplicate-review' });
});

test('summary', () => {
  const shop = makeShop();
  const bob = shop.services.customers.register({ email: 'bob@example.com', $NAME$: 'Bob Stone' });
  assert.deepEqual(shop.services.reviews.summary(shop.pad.id), { count: 0, average: null, verified: 0 });
  shop.services.reviews.add({ productId: shop.pad.id, customerId: shop.ada.id, rating: 5 });
  shop.services.reviews.add({ productId: shop.pad.id, customerId: bob.id, rating: 2 });
  assert.deepEqual(shop.services.reviews.summary(shop.pad.id), { count: 2, average: 3.5, verified: 0 });
});
