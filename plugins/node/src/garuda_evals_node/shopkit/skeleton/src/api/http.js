import { AppError } from '../util/errors.js';

/** Responses are plain objects: { status, body }. */
export const ok = (body) => ({ status: 200, body });
export const created = (body) => ({ status: 201, body });
export const noContent = () => ({ status: 204, body: null });

/** The response for a thrown error: its status and code for an AppError, else 500. */
export function errorResponse(error) {
  if (error instanceof AppError) {
    const body = { code: error.code, message: error.message };
    if (error.field !== undefined) body.field = error.field;
    return { status: error.status, body: { error: body } };
  }
  return { status: 500, body: { error: { code: 'internal', message: String(error?.message ?? error) } } };
}

/** "/products?page=2" -> { path: "/products", query: { page: "2" } }. */
export function parseUrl(url) {
  const at = url.indexOf('?');
  if (at === -1) return { path: url, query: {} };
  return { path: url.slice(0, at), query: Object.fromEntries(new URLSearchParams(url.slice(at + 1))) };
}

/** The request body as an object; anything else is a 400. */
export function jsonBody(body) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('the request body must be a JSON object', { status: 400, code: 'invalid-body' });
  }
  return body;
}
