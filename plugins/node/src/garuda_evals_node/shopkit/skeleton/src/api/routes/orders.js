import { created, jsonBody, ok } from '../http.js';
import { serializeOrder } from '../serializers.js';

/** /orders: place from a cart, read, cancel. */
export function registerOrderRoutes(router, { orders }) {
  router.post('/orders', ({ body }) => {
    const { cartId, addressId } = jsonBody(body);
    return created(serializeOrder(orders.place(cartId, { addressId })));
  });
  router.get('/orders/:id', ({ params }) => ok(serializeOrder(orders.get(params.id))));
  router.post('/orders/:id/cancel', ({ params }) => ok(serializeOrder(orders.cancel(params.id))));
}
