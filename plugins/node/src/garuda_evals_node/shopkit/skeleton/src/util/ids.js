/**
 * Makes ids like "ord_0001": one counter per prefix. Each app has its own generator,
 * so two apps (and two tests) never share ids.
 */
export function createIdGenerator() {
  const counters = new Map();
  return function nextId(prefix) {
    const n = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, n);
    return `${prefix}_${String(n).padStart(4, '0')}`;
  };
}

/** Whether `value` looks like an id with `prefix`. */
export function isId(value, prefix) {
  return typeof value === 'string' && new RegExp(`^${prefix}_\\d{4,}$`).test(value);
}

/** The number part of an id: 12 for "ord_0012". */
export function idNumber(id) {
  return Number(id.slice(id.lastIndexOf('_') + 1));
}
