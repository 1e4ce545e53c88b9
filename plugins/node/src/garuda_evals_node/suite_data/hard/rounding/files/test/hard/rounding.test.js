import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop, placeOrder } from '../helpers.js';
import { TaxService } from '../../src/services/taxService.js';

test('3 x $19.99 to California: the tax is $4.35', () => {
  const shop = makeShop({ region: 'CA' });
  const order = placeOrder(shop, [[shop.pen, 3]]);
  assert.equal(order.subtotalCents, 5997);
  assert.equal(order.taxCents, 435);
  assert.equal(order.totalCents, 6432);
});

test('the cart shows the same tax before the order', () => {
  const shop = makeShop({ region: 'CA' });
  const call = (method, path, body) => shop.app.handle({ method, path, body });
  const cart = call('POST', '/carts', { customerId: shop.ada.id }).body;
  call('POST', `/carts/${cart.id}/items`, { productId: shop.pen.id, quantity: 3 });
  const priced = call('GET', `/carts/${cart.id}?region=CA`).body;
  assert.equal(priced.taxCents, 435);
  assert.equal(priced.total, '$64.32');
});

test('halves round away from zero, so refunds mirror charges', () => {
  const tax = new TaxService();
  assert.equal(tax.taxFor(40, 'TX'), 3);
  assert.equal(tax.taxFor(-40, 'TX'), -3);
  assert.equal(tax.taxFor(-5997, 'CA'), -435);
  assert.equal(tax.taxFor(1, 'WA'), 0);
  assert.equal(tax.taxFor(0, 'CA'), 0);
});

test('a fixed discount leaves an exact tax', () => {
  const shop = makeShop({ region: 'TX' });
  shop.services.coupons.create({ code: 'OFF', amountCents: 997 });
  const order = placeOrder(shop, [[shop.pen, 3]], { coupon: 'OFF' });
  assert.equal(order.taxCents, 313);
});
