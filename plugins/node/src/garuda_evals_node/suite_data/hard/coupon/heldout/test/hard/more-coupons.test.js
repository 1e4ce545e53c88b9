import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop, placeOrder } from '../helpers.js';

test('15% of a pad is 68 cents', () => {
  const shop = makeShop({ region: 'OR' });
  shop.services.coupons.create({ code: 'P15', type: 'percent', percent: 15 });
  assert.equal(placeOrder(shop, [[shop.pad, 1]], { coupon: 'P15' }).discountCents, 68);
});

test('the cap wins over a larger share', () => {
  const shop = makeShop({ region: 'OR' });
  shop.services.coupons.create({ code: 'CAP40', type: 'percent', percent: 40, maxDiscountCents: 500 });
  assert.equal(placeOrder(shop, [[shop.mug, 2]], { coupon: 'CAP40' }).discountCents, 500);
});

test('a capped percent coupon is described with its cap', () => {
  const shop = makeShop();
  shop.app.handle({ method: 'POST', path: '/coupons', body: { code: 'QUARTER', type: 'percent', percent: 25, maxDiscountCents: 1250 } });
  assert.deepEqual(shop.app.handle({ method: 'GET', path: '/coupons' }).body.map((coupon) => coupon.description), ['25% off (up to $12.50)']);
});

test('a 100% coupon leaves only shipping', () => {
  const shop = makeShop({ region: 'OR' });
  shop.services.coupons.create({ code: 'FREE', type: 'percent', percent: 100 });
  const order = placeOrder(shop, [[shop.pen, 1]], { coupon: 'FREE' });
  assert.deepEqual([order.discountCents, order.totalCents], [1999, 599]);
});
