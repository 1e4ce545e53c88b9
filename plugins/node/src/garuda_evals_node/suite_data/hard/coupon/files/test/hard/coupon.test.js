import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop, placeOrder } from '../helpers.js';

test('a percent coupon takes its share of the subtotal, rounded to the cent', () => {
  const shop = makeShop({ region: 'OR' });
  shop.services.coupons.create({ code: 'take15', type: 'percent', percent: 15 });
  const order = placeOrder(shop, [[shop.pen, 3]], { coupon: 'TAKE15' });
  assert.equal(order.subtotalCents, 5997);
  assert.equal(order.discountCents, 900);
  assert.equal(order.shippingCents, 0);
  assert.equal(order.totalCents, 5097);
});

test('maxDiscountCents caps the discount', () => {
  const shop = makeShop({ region: 'OR' });
  shop.services.coupons.create({ code: 'HALF', type: 'percent', percent: 50, maxDiscountCents: 1000 });
  const order = placeOrder(shop, [[shop.pen, 3]], { coupon: 'HALF' });
  assert.equal(order.discountCents, 1000);
  assert.equal(order.totalCents, 4997 + 599);
});

test('tax is charged on the subtotal after a percent discount', () => {
  const shop = makeShop({ region: 'CA' });
  shop.services.coupons.create({ code: 'TEN', type: 'percent', percent: 10 });
  const order = placeOrder(shop, [[shop.mug, 5]], { coupon: 'TEN' });
  assert.equal(order.discountCents, 600);
  assert.equal(order.taxCents, 392);
  assert.equal(order.totalCents, 5792);
});

test('percent coupons keep the minimum and the expiry', () => {
  const shop = makeShop();
  shop.services.coupons.create({ code: 'BIG', type: 'percent', percent: 20, minSubtotalCents: 10000 });
  shop.services.coupons.create({ code: 'OLD', type: 'percent', percent: 20, expiresAt: '2024-01-01T00:00:00Z' });
  assert.throws(() => placeOrder(shop, [[shop.pen, 3]], { coupon: 'BIG' }), { code: 'coupon-below-minimum' });
  assert.throws(() => placeOrder(shop, [[shop.pen, 3]], { coupon: 'OLD' }), { code: 'coupon-expired' });
});

test('invalid percentages are refused', () => {
  const shop = makeShop();
  for (const percent of [0, 101, 12.5, undefined]) {
    assert.throws(
      () => shop.services.coupons.create({ code: `P${percent}`, type: 'percent', percent }),
      { name: 'ValidationError', field: 'percent' },
      String(percent),
    );
  }
  const response = shop.app.handle({ method: 'POST', path: '/coupons', body: { code: 'X', type: 'percent', percent: 0 } });
  assert.equal(response.status, 400);
  assert.equal(response.body.error.field, 'percent');
});

test('the two kinds have their own fields', () => {
  const shop = makeShop();
  const fixed = shop.services.coupons.create({ code: 'FIVE', amountCents: 500 });
  const percent = shop.services.coupons.create({ code: 'PCT', type: 'percent', percent: 5 });
  assert.deepEqual([fixed.amountCents, fixed.percent, fixed.maxDiscountCents], [500, null, null]);
  assert.deepEqual([percent.amountCents, percent.percent, percent.maxDiscountCents], [null, 5, null]);
  assert.throws(() => shop.services.coupons.create({ code: 'NOAMOUNT', type: 'fixed' }), { field: 'amountCents' });
});

test('fixed coupons still work', () => {
  const shop = makeShop({ region: 'OR' });
  shop.services.coupons.create({ code: 'FIVE', amountCents: 500 });
  assert.equal(placeOrder(shop, [[shop.pen, 3]], { coupon: 'FIVE' }).discountCents, 500);
});

test('GET /coupons describes each coupon', () => {
  const shop = makeShop();
  const call = (method, path, body) => shop.app.handle({ method, path, body });
  call('POST', '/coupons', { code: 'SAVE5', amountCents: 500 });
  call('POST', '/coupons', { code: 'TAKE15', type: 'percent', percent: 15, maxDiscountCents: 2000 });
  call('POST', '/coupons', { code: 'HALF', type: 'percent', percent: 50 });
  assert.deepEqual(call('GET', '/coupons').body.map((coupon) => [coupon.code, coupon.description]), [
    ['SAVE5', '$5.00 off'],
    ['TAKE15', '15% off (up to $20.00)'],
    ['HALF', '50% off'],
  ]);
});
