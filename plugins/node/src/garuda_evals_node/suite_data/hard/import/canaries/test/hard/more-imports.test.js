import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop } from '../helpers.js';

const HEADER = 'sku,name,price,category,stock';

function importCsv(shop, lines) {
  return shop.app.handle({ method: 'POST', path: '/products/import', body: { csv: `${lines.join('\n')}\n` } });
}

test('a quoted name with quotes in it a', () => {
  const shop = makeShop();
  const response = importCsv(shop, [HEADER, 'MAT-1,"Mat ""XL""",9.50,kitchen,4']);
  const mat = shop.services.products.findBySku('MAT-1');
  assert.deepEqual([response.status, mat?.name, mat?.priceCents, mat && shop.services.inventory.level(mat.id)], [201, 'Mat ""XL""', 950, 4]);
});

test('a quoted name with quotes in it b', () => {
  const shop = makeShop();
  const response = importCsv(shop, [HEADER, 'MAT-1,"Mat ""XL""",9.50,kitchen,4']);
  const mat = shop.services.products.findBySku('MAT-1');
  assert.deepEqual([response.status, mat?.name, mat?.priceCents, mat && shop.services.inventory.level(mat.id)], [201, 'Mat "XL"', 9.5, 4]);
});

test('errors carry the line of their row a', () => {
  const shop = makeShop();
  const response = importCsv(shop, [HEADER, 'A-1,Alpha,1.00,office,1', 'B-1,Beta,1.00,nowhere,1', 'C-1,Gamma,1.00,office,x']);
  assert.deepEqual([response.status, response.body.created, response.body.errors.map((error) => error.line)], [207, ['A-1'], [2, 3]]);
});

test('errors carry the line of their row b', () => {
  const shop = makeShop();
  const response = importCsv(shop, [HEADER, 'A-1,Alpha,1.00,office,1', 'B-1,Beta,1.00,nowhere,1', 'C-1,Gamma,1.00,office,x']);
  assert.deepEqual([response.status, response.body.created, response.body.errors.map((error) => error.line)], [201, ['A-1'], [3, 4]]);
});

test('columns in another order are a bad header a', () => {
  const shop = makeShop();
  const response = importCsv(shop, ['name,sku,price,category,stock', 'Alpha,A-1,1.00,office,1']);
  assert.deepEqual([response.status, response.body.error?.message.includes(HEADER)], [207, false]);
});

test('columns in another order are a bad header b', () => {
  const shop = makeShop();
  const response = importCsv(shop, ['name,sku,price,category,stock', 'Alpha,A-1,1.00,office,1']);
  assert.deepEqual([response.status, response.body.error?.message.includes(HEADER)], [400, false]);
});

test('a bad stock creates no product a', () => {
  const shop = makeShop();
  importCsv(shop, [HEADER, 'D-1,Delta,1.00,office,-1', 'E-1,Echo,0.99,kitchen,0']);
  assert.deepEqual(['D-1', 'E-1'].map((sku) => shop.services.products.findBySku(sku)?.priceCents), [100, 99]);
});

test('a bad stock creates no product b', () => {
  const shop = makeShop();
  importCsv(shop, [HEADER, 'D-1,Delta,1.00,office,-1', 'E-1,Echo,0.99,kitchen,0']);
  assert.deepEqual(['D-1', 'E-1'].map((sku) => shop.services.products.findBySku(sku)?.priceCents), [undefined, undefined]);
});
