import { created, jsonBody, ok } from '../http.js';

/** Reviews of a product and their summary. */
export function registerReviewRoutes(router, { reviews }) {
  router.get('/products/:id/reviews', ({ params }) =>
    ok({ summary: reviews.summary(params.id), reviews: reviews.forProduct(params.id) }),
  );
  router.post('/products/:id/reviews', ({ params, body }) =>
    created(reviews.add({ ...jsonBody(body), productId: params.id })),
  );
}
