import { SETTINGS } from '../config/settings.js';
import { multiplyCents, sumCents } from '../util/money.js';

/**
 * Prices lines of { productId, quantity }: the discount comes off the subtotal, tax is
 * charged on the discounted subtotal, and shipping is free from a threshold on.
 */
export class PricingService {
  constructor({ products, coupons, tax }, settings = SETTINGS) {
    this.products = products;
    this.coupons = coupons;
    this.tax = tax;
    this.settings = settings;
  }

  priceLines(lines) {
    return lines.map(({ productId, quantity }) => {
      const product = this.products.get(productId);
      return {
        productId,
        name: product.name,
        quantity,
        unitCents: product.priceCents,
        lineCents: multiplyCents(product.priceCents, quantity),
      };
    });
  }

  /** The full quote; `region` null leaves tax out (a cart before checkout). */
  quote(lines, { region = null, couponCode = null } = {}) {
    const priced = this.priceLines(lines);
    const subtotalCents = sumCents(priced.map((line) => line.lineCents));
    let discountCents = 0;
    if (couponCode) {
      const coupon = this.coupons.validate(couponCode, subtotalCents);
      discountCents = this.coupons.discountFor(coupon, subtotalCents);
    }
    const taxable = subtotalCents - discountCents;
    const taxCents = region ? this.tax.taxFor(taxable, region) : 0;
    const shippingCents =
      priced.length === 0 || taxable >= this.settings.freeShippingOverCents ? 0 : this.settings.flatShippingCents;
    return {
      lines: priced,
      subtotalCents,
      discountCents,
      taxCents,
      shippingCents,
      totalCents: taxable + taxCents + shippingCents,
      couponCode,
    };
  }
}
