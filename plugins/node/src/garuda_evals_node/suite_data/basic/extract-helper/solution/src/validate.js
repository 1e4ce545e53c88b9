/** Returns `value` when it is a positive integer; throws TypeError or RangeError naming it. */
export function requirePositiveInt(value, name) {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`${name} must be an integer, got ${value}`);
  }
  if (value <= 0) {
    throw new RangeError(`${name} must be positive, got ${value}`);
  }
  return value;
}
