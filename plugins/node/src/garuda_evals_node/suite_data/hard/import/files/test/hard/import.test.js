import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop } from '../helpers.js';

const HEADER = 'sku,name,price,category,stock';

function importCsv(shop, lines) {
  const csv = `${lines.join('\n')}\n`;
  return shop.app.handle({ method: 'POST', path: '/products/import', body: { csv } });
}

test('valid rows become products with stock', () => {
  const shop = makeShop();
  const response = importCsv(shop, [HEADER, 'PEN-9,"Pens, blue (10)",4.99,office,12', 'CUP-9,Cup,12,kitchen,0']);
  assert.equal(response.status, 201);
  assert.deepEqual(response.body, { created: ['PEN-9', 'CUP-9'], errors: [] });
  const pens = shop.services.products.findBySku('PEN-9');
  assert.equal(pens.name, 'Pens, blue (10)');
  assert.equal(pens.priceCents, 499);
  assert.equal(pens.categoryId, shop.office.id);
  assert.equal(shop.services.inventory.level(pens.id), 12);
  assert.equal(shop.services.inventory.level(shop.services.products.findBySku('CUP-9').id), 0);
});

test('bad rows are reported by line and create nothing', () => {
  const shop = makeShop();
  const response = importCsv(shop, [
    HEADER,
    'OK-1,Fine,1.50,office,3',
    'BAD-1,Broken,abc,office,1',
    'BAD-2,Lost,1.00,garden,1',
    'PEN-1,Twin,1.00,office,1',
    'BAD-3,Minus,1.00,office,-2',
    'BAD-4,Short,1.00',
    'OK-2,Also fine,2.00,kitchen,1',
  ]);
  assert.equal(response.status, 207);
  assert.deepEqual(response.body.created, ['OK-1', 'OK-2']);
  assert.deepEqual(response.body.errors.map((error) => error.line), [3, 4, 5, 6, 7]);
  const [price, category, duplicate, stock, fields] = response.body.errors.map((error) => error.message);
  assert.match(price, /not a money amount/);
  assert.match(category, /unknown category garden/);
  assert.match(duplicate, /PEN-1/);
  assert.match(stock, /stock/);
  assert.match(fields, /fields/);
  for (const sku of ['BAD-1', 'BAD-2', 'BAD-3', 'BAD-4']) {
    assert.equal(shop.services.products.findBySku(sku), undefined, sku);
  }
  assert.equal(shop.services.products.findBySku('PEN-1').name, 'Gel Pen');
});

test('a wrong header is a 400 that names the expected header', () => {
  const shop = makeShop();
  const response = importCsv(shop, ['sku,name,price', 'A,B,1']);
  assert.equal(response.status, 400);
  assert.match(response.body.error.message, /sku,name,price,category,stock/);
});

test('a missing csv is a 400', () => {
  const shop = makeShop();
  assert.equal(shop.app.handle({ method: 'POST', path: '/products/import', body: {} }).status, 400);
});

test('imported products are on sale like any other', () => {
  const shop = makeShop();
  importCsv(shop, [HEADER, 'LAMP-1,Desk Lamp,25.00,office,2']);
  const list = shop.app.handle({ method: 'GET', path: '/products?category=office' }).body;
  assert.deepEqual(list.items.map((product) => product.sku), ['PEN-1', 'PAD-1', 'LAMP-1']);
});
