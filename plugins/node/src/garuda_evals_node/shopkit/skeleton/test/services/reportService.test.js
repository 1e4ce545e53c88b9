import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop, placeOrder, payOrder } from '../helpers.js';

function shopWithSales() {
  const shop = makeShop();
  payOrder(shop, placeOrder(shop, [[shop.pen, 2], [shop.mug, 1]]));
  payOrder(shop, placeOrder(shop, [[shop.pad, 4]]));
  placeOrder(shop, [[shop.mug, 5]]);
  return shop;
}

test('sales by category count paid orders only', () => {
  const shop = shopWithSales();
  assert.deepEqual(shop.services.reports.salesByCategory(), [
    { category: 'Office', units: 6, revenueCents: 5798 },
    { category: 'Kitchen', units: 1, revenueCents: 1200 },
  ]);
});

test('top customers', () => {
  const shop = shopWithSales();
  const [top] = shop.services.reports.topCustomers();
  assert.equal(top.$NAME$, 'Ada Marsh');
  assert.equal(top.orders, 2);
});

test('orders CSV lists every order', () => {
  const shop = shopWithSales();
  const lines = shop.services.reports.ordersCsv().trim().split('\n');
  assert.equal(lines[0], 'order,customer,status,total');
  assert.equal(lines.length, 4);
  assert.match(lines[3], /^ord_0003,Ada Marsh,pending,\$/);
});
