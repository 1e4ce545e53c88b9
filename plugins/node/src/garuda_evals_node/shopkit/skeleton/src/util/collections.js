/** Groups `items` into a Map by `key(item)`, keeping the order of first appearance. */
export function groupBy(items, key) {
  const groups = new Map();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}

/** A Map from `key(item)` to item; a duplicate key is an error. */
export function indexBy(items, key) {
  const index = new Map();
  for (const item of items) {
    const k = key(item);
    if (index.has(k)) throw new Error(`duplicate key ${k}`);
    index.set(k, item);
  }
  return index;
}

export function sumBy(items, value) {
  return items.reduce((total, item) => total + value(item), 0);
}

/** A sorted copy; ties keep their order. `direction` is 'asc' or 'desc'. */
export function sortBy(items, key, direction = 'asc') {
  const sign = direction === 'desc' ? -1 : 1;
  return [...items].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -sign : ka > kb ? sign : 0;
  });
}
