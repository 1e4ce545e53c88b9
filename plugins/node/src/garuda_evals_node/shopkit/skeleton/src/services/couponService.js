import { MemoryStore } from '../store/memoryStore.js';
import { createCoupon, updateCoupon, COUPON_PREFIX } from '../entities/coupon.js';
import { isPast } from '../util/clock.js';
import { ConflictError, CouponError } from '../util/errors.js';
import { formatMoney } from '../util/money.js';

/** Discount codes. A code is stored upper-case and matched without regard to case. */
export class CouponService {
  constructor({ clock, nextId }) {
    this.clock = clock;
    this.nextId = nextId;
    this.store = new MemoryStore('coupon');
  }

  create(input) {
    const code = typeof input.code === 'string' ? input.code.toUpperCase() : input.code;
    const coupon = createCoupon({ ...input, code }, { id: this.nextId(COUPON_PREFIX), now: this.clock.now() });
    if (this.findByCode(coupon.code)) throw new ConflictError(`coupon ${coupon.code} exists`, 'duplicate-code');
    return this.store.insert(coupon);
  }

  findByCode(code) {
    const wanted = String(code).toUpperCase();
    return this.store.findOne((coupon) => coupon.code === wanted);
  }

  /** The coupon for `code` if it can be used on `subtotalCents` now, else a CouponError. */
  validate(code, subtotalCents) {
    const coupon = this.findByCode(code);
    if (!coupon || !coupon.active) throw new CouponError(`coupon ${code} does not exist`, 'unknown');
    if (coupon.expiresAt && isPast(this.clock, coupon.expiresAt)) {
      throw new CouponError(`coupon ${coupon.code} has expired`, 'expired');
    }
    if (subtotalCents < coupon.minSubtotalCents) {
      throw new CouponError(
        `coupon ${coupon.code} needs a subtotal of ${formatMoney(coupon.minSubtotalCents)}`,
        'below-minimum',
      );
    }
    return coupon;
  }

  /** What `coupon` takes off `subtotalCents`; never more than the subtotal. */
  discountFor(coupon, subtotalCents) {
    return Math.min(coupon.amountCents, subtotalCents);
  }

  deactivate(code) {
    const coupon = this.findByCode(code);
    if (!coupon) throw new CouponError(`coupon ${code} does not exist`, 'unknown');
    return this.store.replace(updateCoupon(coupon, { active: false }));
  }

  list() {
    return this.store.list();
  }
}
