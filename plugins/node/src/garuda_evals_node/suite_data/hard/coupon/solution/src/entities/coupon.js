import { requireBoolean, requireCents, requireInt, requireIsoDate, requireOneOf, requireString } from '../util/validate.js';

export const COUPON_PREFIX = 'cpn';
export const COUPON_TYPES = Object.freeze(['fixed', 'percent']);

/** The fields of a coupon, in the order the API shows them. */
export const COUPON_FIELDS = Object.freeze(['id', 'code', 'type', 'amountCents', 'percent', 'maxDiscountCents', 'minSubtotalCents', 'expiresAt', 'active', 'createdAt']);

/**
 * A discount code. Codes are matched without regard to case. A fixed coupon takes
 * `amountCents` off; a percent coupon takes `percent` per cent, at most `maxDiscountCents`.
 * Validates `input` and returns a new frozen record; `id` and `now` (a Date) come
 * from the service that stores it.
 */
export function createCoupon(input, { id, now }) {
  const code = requireString(input.code, 'code', { max: 32 });
  const type = requireOneOf(input.type ?? 'fixed', 'type', COUPON_TYPES);
  const fixed = type === 'fixed';
  return Object.freeze({
    id,
    code,
    type,
    amountCents: fixed ? requireCents(input.amountCents, 'amountCents') : null,
    percent: fixed ? null : requireInt(input.percent, 'percent', { min: 1, max: 100 }),
    maxDiscountCents: fixed || input.maxDiscountCents == null ? null : requireCents(input.maxDiscountCents, 'maxDiscountCents'),
    minSubtotalCents: input.minSubtotalCents === undefined ? 0 : requireCents(input.minSubtotalCents, 'minSubtotalCents'),
    expiresAt: input.expiresAt == null ? null : requireIsoDate(input.expiresAt, 'expiresAt'),
    active: input.active === undefined ? true : requireBoolean(input.active, 'active'),
    createdAt: now.toISOString(),
  });
}

/** A validated copy of `coupon` with `changes`; id and createdAt never change. */
export function updateCoupon(coupon, changes) {
  const { id, createdAt, ...fields } = { ...coupon, ...changes };
  return createCoupon(fields, { id: coupon.id, now: new Date(coupon.createdAt) });
}
