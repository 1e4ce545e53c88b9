import { created, jsonBody, noContent, ok } from '../http.js';
import { serializeProduct } from '../serializers.js';
import { paginate, parsePageQuery } from '../../util/pagination.js';

/** /products: list (?category=<slug>, paging), read with stock, create, change, withdraw. */
export function registerProductRoutes(router, { products, categories, inventory }) {
  router.get('/products', ({ query }) => {
    const categoryId = query.category ? categories.getBySlug(query.category).id : undefined;
    const items = products.list({ categoryId }).map((product) => serializeProduct(product));
    return ok(paginate(items, parsePageQuery(query)));
  });
  router.get('/products/:id', ({ params }) =>
    ok(serializeProduct(products.get(params.id), { stock: inventory.available(params.id) })),
  );
  router.post('/products', ({ body }) => created(serializeProduct(products.create(jsonBody(body)))));
  router.patch('/products/:id', ({ params, body }) =>
    ok(serializeProduct(products.update(params.id, jsonBody(body)))),
  );
  router.delete('/products/:id', ({ params }) => {
    products.deactivate(params.id);
    return noContent();
  });
}
