import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop, placeOrder } from '../helpers.js';

test('placing an order prices it, reserves stock, empties the cart and emits', () => {
  const shop = makeShop();
  const { services, app, pen, mug } = shop;
  const order = placeOrder(shop, [[mug, 2]]);
  assert.equal(order.status, 'pending');
  assert.deepEqual([order.subtotalCents, order.taxCents, order.shippingCents, order.totalCents], [2400, 174, 599, 3173]);
  assert.equal(services.inventory.available(mug.id), 8);
  assert.deepEqual(app.bus.history('order.placed').map((e) => e.payload), [
    { orderId: order.id, customerId: shop.ada.id, totalCents: 3173 },
  ]);
  assert.equal(services.inventory.available(pen.id), 10);
});

test('an empty cart cannot be ordered', () => {
  const shop = makeShop();
  const cart = shop.services.carts.create(shop.ada.id);
  assert.throws(() => shop.services.orders.place(cart.id, { addressId: shop.home.id }), { code: 'empty-cart' });
});

test('a failed reservation releases what it reserved', () => {
  const shop = makeShop();
  shop.services.inventory.reserve(shop.mug.id, 9);
  assert.throws(() => placeOrder(shop, [[shop.pen, 2], [shop.mug, 2]]), { code: 'out-of-stock' });
  assert.equal(shop.services.inventory.available(shop.pen.id), 10);
});

test('cancelling releases the stock; only pending orders cancel', () => {
  const shop = makeShop();
  const order = placeOrder(shop, [[shop.pad, 3]]);
  shop.services.orders.cancel(order.id);
  assert.equal(shop.services.inventory.available(shop.pad.id), 10);
  assert.throws(() => shop.services.orders.cancel(order.id), { code: 'bad-status' });
});
