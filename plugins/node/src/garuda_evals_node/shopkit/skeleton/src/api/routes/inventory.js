import { jsonBody, ok } from '../http.js';

/** /inventory: levels, restocking and the low-stock list. */
export function registerInventoryRoutes(router, { inventory }) {
  router.get('/inventory/low', () => ok(inventory.lowStock()));
  router.get('/inventory/:productId', ({ params }) =>
    ok({
      productId: params.productId,
      level: inventory.level(params.productId),
      available: inventory.available(params.productId),
    }),
  );
  router.post('/inventory/:productId/restock', ({ params, body }) =>
    ok({ productId: params.productId, level: inventory.restock(params.productId, jsonBody(body).quantity) }),
  );
}
