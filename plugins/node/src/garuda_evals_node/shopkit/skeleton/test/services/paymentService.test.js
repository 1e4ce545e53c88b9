import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop, placeOrder, payOrder } from '../helpers.js';

test('capture charges the exact total, marks paid and commits stock', () => {
  const shop = makeShop();
  const order = placeOrder(shop, [[shop.mug, 2]]);
  const payment = payOrder(shop, order);
  assert.deepEqual([payment.kind, payment.method, payment.amountCents], ['charge', 'card', order.totalCents]);
  assert.equal(shop.services.orders.get(order.id).status, 'paid');
  assert.equal(shop.services.inventory.level(shop.mug.id), 8);
  assert.throws(() => payOrder(shop, order), { code: 'bad-status' });
});

test('a wrong amount is refused', () => {
  const shop = makeShop();
  const order = placeOrder(shop, [[shop.mug, 2]]);
  assert.throws(
    () => shop.services.payments.capture(order.id, { method: 'card', amountCents: order.totalCents - 1 }),
    { code: 'amount-mismatch', status: 402 },
  );
});

test('refunds never exceed the charge', () => {
  const shop = makeShop();
  const order = placeOrder(shop, [[shop.mug, 2]]);
  payOrder(shop, order);
  assert.equal(shop.services.payments.refund(order.id, 1000).kind, 'refund');
  assert.throws(() => shop.services.payments.refund(order.id, order.totalCents), { code: 'over-refund' });
  assert.equal(shop.services.payments.forOrder(order.id).length, 2);
});
