/** Shop-wide settings. Money is in integer cents; tax rates are per cent by region. */
export const SETTINGS = Object.freeze({
  currency: 'USD',
  flatShippingCents: 599,
  freeShippingOverCents: 5000,
  lowStockThreshold: 5,
});

export const TAX_RATES = Object.freeze({
  CA: 7.25,
  NY: 4,
  OR: 0,
  TX: 6.25,
  WA: 6.5,
});
