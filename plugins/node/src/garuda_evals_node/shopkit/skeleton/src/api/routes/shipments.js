import { created, jsonBody, ok } from '../http.js';

/** The shipment of an order. */
export function registerShipmentRoutes(router, { shipping }) {
  router.post('/orders/:id/shipment', ({ params, body }) =>
    created(shipping.ship(params.id, { carrier: jsonBody(body).carrier })),
  );
  router.get('/orders/:id/shipment', ({ params }) => ok(shipping.forOrder(params.id)));
}
