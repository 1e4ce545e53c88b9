import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop, placeOrder, payOrder } from '../helpers.js';

test('placing and paying an order sends two emails', () => {
  const shop = makeShop();
  const order = placeOrder(shop, [[shop.mug, 2]]);
  payOrder(shop, order);
  assert.deepEqual(shop.services.notifications.outbox(), [
    {
      to: 'ada@example.com',
      template: 'order-confirmation',
      subject: `Order ${order.id} confirmed`,
      body: `Hi Ada, thank you for your order ${order.id} of $31.73.`,
    },
    {
      to: 'ada@example.com',
      template: 'payment-receipt',
      subject: `Receipt for order ${order.id}`,
      body: `Hi Ada, we received $31.73 for order ${order.id}.`,
    },
  ]);
});

test('unknown templates are errors', () => {
  const shop = makeShop();
  const order = placeOrder(shop, [[shop.pen, 1]]);
  assert.throws(() => shop.services.notifications.send(order.id, 'nope'), /no email template nope/);
});
