import { created, jsonBody, noContent, ok } from '../http.js';

/** /coupons: create, read, deactivate. */
export function registerCouponRoutes(router, { coupons }) {
  router.get('/coupons', () => ok(coupons.list()));
  router.post('/coupons', ({ body }) => created(coupons.create(jsonBody(body))));
  router.delete('/coupons/:code', ({ params }) => {
    coupons.deactivate(params.code);
    return noContent();
  });
}
