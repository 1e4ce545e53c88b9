import { ValidationError } from './errors.js';

export const CURRENCY = 'USD';
const SYMBOLS = { USD: '$', EUR: '€', GBP: '£' };

/** Parses "19.99", 19.99 or "19" into integer cents; more than two decimals is an error. */
export function toCents(amount) {
  const text = String(amount).trim();
  const match = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) throw new ValidationError(`not a money amount: ${amount}`, 'amount');
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -cents : cents;
}

/** "$1,234.50" for 123450 cents; negative amounts get a leading minus. */
export function formatMoney(cents, currency = CURRENCY) {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const symbol = SYMBOLS[currency] ?? `${currency} `;
  return `${sign}${symbol}${whole}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * `percent` per cent of `cents` (percent may have two decimals, e.g. 8.25), rounded to the
 * nearest cent with halves away from zero, so that a refund mirrors its charge.
 */
export function percentOf(cents, percent) {
  const basisPoints = Math.round(percent * 100);
  const raw = cents * basisPoints;
  const rounded = Math.floor((Math.abs(raw) + 5000) / 10000);
  return raw < 0 ? -rounded : rounded;
}

/** `cents` times a whole quantity. */
export function multiplyCents(cents, quantity) {
  if (!Number.isInteger(quantity)) throw new ValidationError(`not a quantity: ${quantity}`, 'quantity');
  return cents * quantity;
}

/** The sum of a list of cent amounts. */
export function sumCents(amounts) {
  return amounts.reduce((total, cents) => total + cents, 0);
}
