import { addresses } from '../fixtures/addresses.js';
import { categories } from '../fixtures/categories.js';
import { coupons } from '../fixtures/coupons.js';
import { customers } from '../fixtures/customers.js';
import { orders } from '../fixtures/orders.js';
import { products } from '../fixtures/products.js';
import { reviews } from '../fixtures/reviews.js';
import { stock } from '../fixtures/stock.js';

/**
 * Fills a fresh app's services with the demo data in fixtures/, through the services
 * (so every rule applies): orders are placed, paid and shipped as the fixtures say.
 */
export function loadSeed(services) {
  const categoryIds = new Map(categories.map((c) => [c.slug, services.categories.create(c).id]));
  const productIds = new Map();
  for (const { category, ...product } of products) {
    productIds.set(product.sku, services.products.create({ ...product, categoryId: categoryIds.get(category) }).id);
  }
  for (const [sku, quantity] of Object.entries(stock)) services.inventory.restock(productIds.get(sku), quantity);
  for (const coupon of coupons) services.coupons.create(coupon);
  const customerIds = new Map(customers.map((c) => [c.email, services.customers.register(c).id]));
  const addressIds = new Map();
  for (const { email, ...address } of addresses) {
    addressIds.set(email, services.customers.addAddress(customerIds.get(email), address).id);
  }
  for (const { email, items, coupon, carrier } of orders) {
    const cart = services.carts.create(customerIds.get(email));
    for (const [sku, quantity] of items) services.carts.addItem(cart.id, productIds.get(sku), quantity);
    if (coupon) services.carts.applyCoupon(cart.id, coupon);
    const order = services.orders.place(cart.id, { addressId: addressIds.get(email) });
    services.payments.capture(order.id, { method: 'card', amountCents: order.totalCents });
    if (carrier) services.shipping.ship(order.id, { carrier });
  }
  for (const { sku, email, rating, text } of reviews) {
    services.reviews.add({ productId: productIds.get(sku), customerId: customerIds.get(email), rating, text });
  }
  return { categoryIds, productIds, customerIds, addressIds };
}
