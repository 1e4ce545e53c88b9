import { test } from 'node:test';
import assert from 'node:assert/strict';

const exported = async (path) => Object.keys(await import(new URL(path, import.meta.url))).sort();

test('strings.js exports what is used', async () => {
  assert.deepEqual(await exported('../../src/util/strings.js'), ['fillTemplate', 'slugify', 'titleCase', 'truncate']);
});

test('pricingService.js exports what is used', async () => {
  assert.deepEqual(await exported('../../src/services/pricingService.js'), ['PricingService']);
});

test('serializers.js exports what is used', async () => {
  assert.deepEqual(await exported('../../src/api/serializers.js'), ['serializeCart', 'serializeCustomer', 'serializeOrder', 'serializePayment', 'serializeProduct']);
});

test('the unused module is gone', async () => {
  await assert.rejects(exported('../../src/util/legacyMoney.js'), { code: 'ERR_MODULE_NOT_FOUND' });
});
