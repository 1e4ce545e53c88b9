import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError, ValidationError, NotFoundError, ConflictError, CouponError, PaymentError } from '../../src/util/errors.js';

test('errors carry status and code', () => {
  const cases = [
    [new ValidationError('bad', 'sku'), 400, 'invalid'],
    [new NotFoundError('product', 'prod_0001'), 404, 'not-found'],
    [new ConflictError('taken'), 409, 'conflict'],
    [new CouponError('old', 'expired'), 422, 'coupon-expired'],
    [new PaymentError('no'), 402, 'payment-failed'],
  ];
  for (const [error, status, code] of cases) {
    assert.ok(error instanceof AppError);
    assert.equal(error.status, status);
    assert.equal(error.code, code);
  }
});

test('names and fields', () => {
  const error = new ValidationError('sku is required', 'sku');
  assert.equal(error.name, 'ValidationError');
  assert.equal(error.field, 'sku');
  assert.equal(new NotFoundError('order', 'ord_0009').message, 'order ord_0009 not found');
});
