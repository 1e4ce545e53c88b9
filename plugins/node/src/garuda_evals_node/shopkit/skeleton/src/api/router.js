import { NotFoundError } from '../util/errors.js';
import { errorResponse, parseUrl } from './http.js';

/**
 * Matches requests { method, path, body } to handlers. Patterns hold :params
 * ("/orders/:id"); the first route registered for a path and method wins.
 */
export class Router {
  #routes = [];

  add(method, pattern, handler) {
    const keys = [];
    const source = pattern.replace(/:(\w+)/g, (_, key) => {
      keys.push(key);
      return '([^/]+)';
    });
    this.#routes.push({ method, pattern, regex: new RegExp(`^${source}$`), keys, handler });
    return this;
  }

  get(pattern, handler) {
    return this.add('GET', pattern, handler);
  }

  post(pattern, handler) {
    return this.add('POST', pattern, handler);
  }

  put(pattern, handler) {
    return this.add('PUT', pattern, handler);
  }

  patch(pattern, handler) {
    return this.add('PATCH', pattern, handler);
  }

  delete(pattern, handler) {
    return this.add('DELETE', pattern, handler);
  }

  /** Runs the matching handler; errors become error responses. */
  handle({ method, path: url, body = null }) {
    const { path, query } = parseUrl(url);
    const matching = this.#routes.filter((route) => route.regex.test(path));
    if (matching.length === 0) return errorResponse(new NotFoundError('route', path));
    const route = matching.find((r) => r.method === method);
    if (!route) {
      return { status: 405, body: { error: { code: 'method-not-allowed', message: `${method} ${path} is not allowed` } } };
    }
    const values = route.regex.exec(path).slice(1).map(decodeURIComponent);
    const params = Object.fromEntries(route.keys.map((key, i) => [key, values[i]]));
    try {
      return route.handler({ params, query, body });
    } catch (error) {
      return errorResponse(error);
    }
  }

  /** "METHOD /pattern" for every route, in registration order. */
  routes() {
    return this.#routes.map((route) => `${route.method} ${route.pattern}`);
  }
}
