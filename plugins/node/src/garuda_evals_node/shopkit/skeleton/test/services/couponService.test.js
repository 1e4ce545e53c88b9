import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop } from '../helpers.js';

test('codes are stored upper-case and found in any case', () => {
  const { services } = makeShop();
  services.coupons.create({ code: 'save5', amountCents: 500 });
  assert.equal(services.coupons.findByCode('Save5').code, 'SAVE5');
  assert.throws(() => services.coupons.create({ code: 'SAVE5', amountCents: 100 }), { code: 'duplicate-code' });
});

test('validate: unknown, inactive, expired, below minimum', () => {
  const { services } = makeShop();
  services.coupons.create({ code: 'MIN20', amountCents: 500, minSubtotalCents: 2000 });
  services.coupons.create({ code: 'OLD', amountCents: 500, expiresAt: '2024-02-01T00:00:00Z' });
  services.coupons.create({ code: 'OFF', amountCents: 500 });
  services.coupons.deactivate('OFF');
  assert.throws(() => services.coupons.validate('NOPE', 5000), { code: 'coupon-unknown' });
  assert.throws(() => services.coupons.validate('OFF', 5000), { code: 'coupon-unknown' });
  assert.throws(() => services.coupons.validate('OLD', 5000), { code: 'coupon-expired' });
  assert.throws(() => services.coupons.validate('MIN20', 1999), { code: 'coupon-below-minimum' });
  assert.equal(services.coupons.validate('min20', 2000).code, 'MIN20');
});

test('a fixed discount never exceeds the subtotal', () => {
  const { services } = makeShop();
  const coupon = services.coupons.create({ code: 'BIG', amountCents: 5000 });
  assert.equal(services.coupons.discountFor(coupon, 12000), 5000);
  assert.equal(services.coupons.discountFor(coupon, 3000), 3000);
});
