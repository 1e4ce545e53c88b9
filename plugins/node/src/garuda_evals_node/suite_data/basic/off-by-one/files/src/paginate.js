/**
 * Returns one page of `items`. Pages are numbered from 1.
 * An empty list has one (empty) page. A page number outside 1..totalPages is a RangeError.
 */
export function paginate(items, page, perPage = 10) {
  if (!Number.isInteger(perPage) || perPage < 1) {
    throw new RangeError(`perPage must be a positive integer, got ${perPage}`);
  }
  const totalPages = Math.max(1, Math.floor(items.length / perPage));
  if (!Number.isInteger(page) || page < 1 || page > totalPages) {
    throw new RangeError(`page ${page} is outside 1..${totalPages}`);
  }
  const start = (page - 1) * perPage;
  return {
    items: items.slice(start, start + perPage),
    page,
    totalPages,
    hasPrevious: page > 1,
    hasNext: page < totalPages,
  };
}

/** The 1-based page on which the item at `index` (0-based) appears. */
export function pageOf(index, perPage = 10) {
  return Math.floor(index / perPage) + 1;
}
