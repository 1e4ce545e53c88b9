import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeShop } from '../helpers.js';

test('small orders pay flat shipping; no region, no tax', () => {
  const { services, pad } = makeShop();
  const quote = services.pricing.quote([{ productId: pad.id, quantity: 2 }]);
  assert.deepEqual(
    [quote.subtotalCents, quote.discountCents, quote.taxCents, quote.shippingCents, quote.totalCents],
    [900, 0, 0, 599, 1499],
  );
  assert.deepEqual(quote.lines[0], { productId: pad.id, name: 'Note Pad', quantity: 2, unitCents: 450, lineCents: 900 });
});

test('tax is charged on the discounted subtotal', () => {
  const { services, mug } = makeShop();
  services.coupons.create({ code: 'TWELVE', amountCents: 1200 });
  const quote = services.pricing.quote([{ productId: mug.id, quantity: 5 }], { region: 'CA', couponCode: 'TWELVE' });
  assert.equal(quote.subtotalCents, 6000);
  assert.equal(quote.discountCents, 1200);
  assert.equal(quote.taxCents, 348);
  assert.equal(quote.shippingCents, 599);
  assert.equal(quote.totalCents, 5747);
});

test('shipping is free from the threshold on', () => {
  const { services, mug } = makeShop({ region: 'OR' });
  const quote = services.pricing.quote([{ productId: mug.id, quantity: 5 }], { region: 'OR' });
  assert.equal(quote.shippingCents, 0);
  assert.equal(quote.totalCents, 6000);
});

test('an empty cart costs nothing', () => {
  const { services } = makeShop();
  assert.equal(services.pricing.quote([], { region: 'CA' }).totalCents, 0);
});
