import { groupBy, sortBy, sumBy } from '../util/collections.js';
import { toCsv } from '../util/csv.js';
import { formatMoney } from '../util/money.js';

const COUNTED = ['paid', 'shipped'];

/** Reports over paid and shipped orders. */
export class ReportService {
  constructor({ orders, products, categories, customers }) {
    this.orders = orders;
    this.products = products;
    this.categories = categories;
    this.customers = customers;
  }

  #counted() {
    return this.orders.list().filter((order) => COUNTED.includes(order.status));
  }

  /** Revenue (line totals before discount and tax) per category, highest first. */
  salesByCategory() {
    const lines = this.#counted().flatMap((order) => order.lines);
    const byCategory = groupBy(lines, (line) => this.products.get(line.productId).categoryId);
    const rows = [...byCategory.entries()].map(([categoryId, categoryLines]) => ({
      category: this.categories.get(categoryId).name,
      units: sumBy(categoryLines, (line) => line.quantity),
      revenueCents: sumBy(categoryLines, (line) => line.lineCents),
    }));
    return sortBy(rows, (row) => row.revenueCents, 'desc');
  }

  /** The customers who spent most (order totals), at most `limit`. */
  topCustomers(limit = 5) {
    const byCustomer = groupBy(this.#counted(), (order) => order.customerId);
    const rows = [...byCustomer.entries()].map(([customerId, orders]) => ({
      customerId,
      $NAME$: this.customers.get(customerId).$NAME$,
      orders: orders.length,
      spentCents: sumBy(orders, (order) => order.totalCents),
    }));
    return sortBy(rows, (row) => row.spentCents, 'desc').slice(0, limit);
  }

  /** Every order as CSV: id, customer, status, total. */
  ordersCsv() {
    return toCsv(this.orders.list(), [
      ['order', (order) => order.id],
      ['customer', (order) => this.customers.get(order.customerId).$NAME$],
      ['status', (order) => order.status],
      ['total', (order) => formatMoney(order.totalCents)],
    ]);
  }
}
