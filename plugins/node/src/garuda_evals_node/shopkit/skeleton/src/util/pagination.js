import { ValidationError } from './errors.js';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/** Reads ?page= and ?perPage= (strings) into numbers, with defaults and limits. */
export function parsePageQuery(query = {}) {
  const page = query.page === undefined ? 1 : Number(query.page);
  const perPage = query.perPage === undefined ? DEFAULT_PER_PAGE : Number(query.perPage);
  if (!Number.isInteger(page) || page < 1) throw new ValidationError('page must be 1 or more', 'page');
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) {
    throw new ValidationError(`perPage must be between 1 and ${MAX_PER_PAGE}`, 'perPage');
  }
  return { page, perPage };
}

/** One page of `items` with the totals a client needs to page on. */
export function paginate(items, { page = 1, perPage = DEFAULT_PER_PAGE } = {}) {
  const total = items.length;
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const start = (page - 1) * perPage;
  return { items: items.slice(start, start + perPage), page, perPage, total, totalPages };
}
