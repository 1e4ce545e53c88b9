import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop, placeOrder, payOrder } from '../helpers.js';
import { trackingNumber } from '../../src/services/shippingService.js';

test('tracking numbers', () => {
  assert.equal(trackingNumber('ups', 'shp_0012'), 'UPS-000012');
});

test('a paid order ships once', () => {
  const shop = makeShop();
  const order = placeOrder(shop, [[shop.pen, 1]]);
  payOrder(shop, order);
  const shipment = shop.services.shipping.ship(order.id, { carrier: 'fedex' });
  assert.equal(shipment.trackingNumber, 'FEDEX-000001');
  assert.equal(shop.services.orders.get(order.id).status, 'shipped');
  assert.equal(shop.services.shipping.forOrder(order.id).id, shipment.id);
  assert.throws(() => shop.services.shipping.ship(order.id, { carrier: 'ups' }), { code: 'bad-status' });
});

test('unpaid orders do not ship', () => {
  const shop = makeShop();
  const order = placeOrder(shop, [[shop.pen, 1]]);
  assert.throws(() => shop.services.shipping.ship(order.id, { carrier: 'ups' }), { code: 'bad-status' });
});
