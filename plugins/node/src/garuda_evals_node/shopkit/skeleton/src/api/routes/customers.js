import { created, jsonBody, ok } from '../http.js';
import { serializeCustomer, serializeOrder } from '../serializers.js';

/** /customers: register, read, addresses and order history. */
export function registerCustomerRoutes(router, { customers, orders }) {
  router.post('/customers', ({ body }) => created(serializeCustomer(customers.register(jsonBody(body)))));
  router.get('/customers/:id', ({ params }) => ok(serializeCustomer(customers.get(params.id))));
  router.post('/customers/:id/addresses', ({ params, body }) =>
    created(customers.addAddress(params.id, jsonBody(body))),
  );
  router.get('/customers/:id/addresses', ({ params }) => {
    customers.get(params.id);
    return ok(customers.listAddresses(params.id));
  });
  router.get('/customers/:id/orders', ({ params }) => {
    customers.get(params.id);
    return ok(orders.listForCustomer(params.id).map(serializeOrder));
  });
}
