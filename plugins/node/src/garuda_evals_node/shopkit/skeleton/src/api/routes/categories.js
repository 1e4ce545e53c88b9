import { created, jsonBody, ok } from '../http.js';

/** /categories: list and create. */
export function registerCategoryRoutes(router, { categories }) {
  router.get('/categories', () => ok(categories.list()));
  router.get('/categories/:slug', ({ params }) => ok(categories.getBySlug(params.slug)));
  router.post('/categories', ({ body }) => created(categories.create(jsonBody(body))));
}
