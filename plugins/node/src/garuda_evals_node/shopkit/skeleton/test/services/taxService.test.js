import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TaxService } from '../../src/services/taxService.js';

test('rates by region', () => {
  const tax = new TaxService();
  assert.equal(tax.rateFor('CA'), 7.25);
  assert.throws(() => tax.rateFor('ZZ'), { field: 'region' });
});

test('tax on whole amounts', () => {
  const tax = new TaxService();
  assert.equal(tax.taxFor(10000, 'CA'), 725);
  assert.equal(tax.taxFor(10000, 'OR'), 0);
  assert.equal(tax.taxFor(20000, 'NY'), 800);
});
