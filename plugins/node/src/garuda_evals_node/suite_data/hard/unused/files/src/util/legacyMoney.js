import { formatMoney } from './money.js';

/** Money as floating-point dollars, from before the shop kept integer cents. */
export function dollarsToDisplay(dollars) {
  return formatMoney(Math.round(dollars * 100));
}

export function addDollars(a, b) {
  return Math.round((a + b) * 100) / 100;
}
