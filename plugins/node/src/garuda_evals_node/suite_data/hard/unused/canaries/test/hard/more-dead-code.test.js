import { test } from 'node:test';
import assert from 'node:assert/strict';

const exported = async (path) => Object.keys(await import(new URL(path, import.meta.url))).sort();

test('strings.js exports what is used a', async () => {
  assert.deepEqual(await exported('../../src/util/strings.js'), ['fillTemplate', 'padCenter', 'slugify', 'titleCase', 'truncate']);
});

test('strings.js exports what is used b', async () => {
  assert.deepEqual(await exported('../../src/util/strings.js'), ['fillTemplate', 'slugify', 'titleCase']);
});

test('pricingService.js exports what is used a', async () => {
  assert.deepEqual(await exported('../../src/services/pricingService.js'), ['PricingService', 'estimateDelivery']);
});

test('pricingService.js exports what is used b', async () => {
  assert.deepEqual(await exported('../../src/services/pricingService.js'), []);
});

test('serializers.js exports what is used a', async () => {
  assert.deepEqual(await exported('../../src/api/serializers.js'), ['serializeCart', 'serializeCustomer', 'serializeLegacyOrder', 'serializeOrder', 'serializePayment', 'serializeProduct']);
});

test('serializers.js exports what is used b', async () => {
  assert.deepEqual(await exported('../../src/api/serializers.js'), ['serializeCustomer', 'serializeOrder', 'serializePayment', 'serializeProduct']);
});

test('the unused module is gone a', async () => {
  await assert.rejects(exported('../../src/util/legacyMoney.js'), { code: 'ERR_UNSUPPORTED_DIR_IMPORT' });
});

test('the unused module is gone b', async () => {
  await assert.rejects(exported('../../src/util/legacyMoney.js'), { code: 'ERR_INVALID_URL' });
});
