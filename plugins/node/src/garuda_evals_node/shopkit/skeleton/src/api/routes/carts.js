import { created, jsonBody, ok } from '../http.js';
import { serializeCart } from '../serializers.js';

/** /carts: create, read (?region= adds tax), lines and the coupon. */
export function registerCartRoutes(router, { carts }) {
  const show = (cart, region = null) => serializeCart(cart, carts.quote(cart.id, region));
  router.post('/carts', ({ body }) => created(show(carts.create(jsonBody(body).customerId))));
  router.get('/carts/:id', ({ params, query }) => ok(show(carts.get(params.id), query.region ?? null)));
  router.post('/carts/:id/items', ({ params, body }) => {
    const { productId, quantity = 1 } = jsonBody(body);
    return ok(show(carts.addItem(params.id, productId, quantity)));
  });
  router.put('/carts/:id/items/:productId', ({ params, body }) =>
    ok(show(carts.setQuantity(params.id, params.productId, jsonBody(body).quantity))),
  );
  router.delete('/carts/:id/items/:productId', ({ params }) =>
    ok(show(carts.removeItem(params.id, params.productId))),
  );
  router.post('/carts/:id/coupon', ({ params, body }) =>
    ok(show(carts.applyCoupon(params.id, jsonBody(body).code))),
  );
  router.delete('/carts/:id/coupon', ({ params }) => ok(show(carts.removeCoupon(params.id))));
}
