import { created, jsonBody, ok } from '../http.js';
import { serializePayment } from '../serializers.js';

/** Payments of an order: charge, refund, list. */
export function registerPaymentRoutes(router, { payments }) {
  router.post('/orders/:id/payments', ({ params, body }) => {
    const { method, amountCents } = jsonBody(body);
    return created(serializePayment(payments.capture(params.id, { method, amountCents })));
  });
  router.post('/orders/:id/refunds', ({ params, body }) =>
    created(serializePayment(payments.refund(params.id, jsonBody(body).amountCents))),
  );
  router.get('/orders/:id/payments', ({ params }) => ok(payments.forOrder(params.id).map(serializePayment)));
}
