import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serializeProduct, serializeCart, serializeOrder } from '../../src/api/serializers.js';
import { makeShop, placeOrder } from '../helpers.js';

test('products show a formatted price and, when known, stock', () => {
  const { pen } = makeShop();
  const body = serializeProduct(pen);
  assert.equal(body.price, '$19.99');
  assert.equal('stock' in body, false);
  assert.equal(serializeProduct(pen, { stock: 3 }).stock, 3);
});

test('carts carry their quote', () => {
  const shop = makeShop();
  const cart = shop.services.carts.addItem(shop.services.carts.create(shop.ada.id).id, shop.pad.id, 2);
  const body = serializeCart(cart, shop.services.carts.quote(cart.id));
  assert.equal(body.subtotalCents, 900);
  assert.equal(body.total, '$14.99');
});

test('orders add a formatted total', () => {
  const shop = makeShop();
  const body = serializeOrder(placeOrder(shop, [[shop.mug, 2]]));
  assert.equal(body.total, '$31.73');
  assert.equal(body.status, 'pending');
});
