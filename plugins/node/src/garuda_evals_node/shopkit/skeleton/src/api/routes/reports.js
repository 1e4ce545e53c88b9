import { ok } from '../http.js';

/** /reports: sales by category, top customers and the orders CSV. */
export function registerReportRoutes(router, { reports }) {
  router.get('/reports/sales-by-category', () => ok(reports.salesByCategory()));
  router.get('/reports/top-customers', ({ query }) =>
    ok(reports.topCustomers(query.limit === undefined ? 5 : Number(query.limit))),
  );
  router.get('/reports/orders.csv', () => ok(reports.ordersCsv()));
}
