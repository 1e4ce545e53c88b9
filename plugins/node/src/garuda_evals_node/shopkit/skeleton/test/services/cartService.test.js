import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop } from '../helpers.js';

test('adding a product twice adds up', () => {
  const { services, ada, pen, mug } = makeShop();
  const cart = services.carts.create(ada.id);
  services.carts.addItem(cart.id, pen.id, 1);
  services.carts.addItem(cart.id, mug.id);
  const updated = services.carts.addItem(cart.id, pen.id, 2);
  assert.deepEqual(updated.lines, [{ productId: pen.id, quantity: 3 }, { productId: mug.id, quantity: 1 }]);
});

test('quantity 0 removes a line; unknown lines are not found', () => {
  const { services, ada, pen, mug } = makeShop();
  const cart = services.carts.create(ada.id);
  services.carts.addItem(cart.id, pen.id, 1);
  assert.deepEqual(services.carts.setQuantity(cart.id, pen.id, 0).lines, []);
  assert.throws(() => services.carts.removeItem(cart.id, mug.id), { status: 404 });
});

test('inactive products and bad quantities are refused', () => {
  const { services, ada, pen, mug } = makeShop();
  const cart = services.carts.create(ada.id);
  services.products.deactivate(mug.id);
  assert.throws(() => services.carts.addItem(cart.id, mug.id, 1), { code: 'inactive-product' });
  assert.throws(() => services.carts.addItem(cart.id, pen.id, 0), { field: 'quantity' });
});

test('coupons are checked against the subtotal when applied', () => {
  const { services, ada, pad } = makeShop();
  services.coupons.create({ code: 'MIN20', amountCents: 500, minSubtotalCents: 2000 });
  const cart = services.carts.create(ada.id);
  services.carts.addItem(cart.id, pad.id, 2);
  assert.throws(() => services.carts.applyCoupon(cart.id, 'min20'), { code: 'coupon-below-minimum' });
  services.carts.addItem(cart.id, pad.id, 3);
  assert.equal(services.carts.applyCoupon(cart.id, 'min20').couponCode, 'MIN20');
  assert.equal(services.carts.quote(cart.id).discountCents, 500);
  assert.equal(services.carts.clear(cart.id).couponCode, null);
});
