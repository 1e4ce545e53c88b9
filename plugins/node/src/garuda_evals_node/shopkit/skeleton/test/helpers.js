import { createApp } from '../src/app.js';
import { fixedClock } from '../src/util/clock.js';

/**
 * A small shop for tests: categories Office and Kitchen, three products with 10 units
 * each (pen $19.99, pad $4.50, mug $12.00) and Ada, with one address in `region`.
 */
export function makeShop({ region = 'CA', clock = fixedClock('2024-03-01T12:00:00Z') } = {}) {
  const app = createApp({ clock });
  const services = app.services;
  const office = services.categories.create({ name: 'Office' });
  const kitchen = services.categories.create({ name: 'Kitchen' });
  const pen = services.products.create({ sku: 'PEN-1', name: 'Gel Pen', priceCents: 1999, categoryId: office.id });
  const pad = services.products.create({ sku: 'PAD-1', name: 'Note Pad', priceCents: 450, categoryId: office.id });
  const mug = services.products.create({ sku: 'MUG-1', name: 'Mug', priceCents: 1200, categoryId: kitchen.id });
  for (const product of [pen, pad, mug]) services.inventory.restock(product.id, 10);
  const ada = services.customers.register({ email: 'ada@example.com', $NAME$: 'Ada Marsh' });
  const home = services.customers.addAddress(ada.id, { line1: '1 Main St', city: 'Fresno', postalCode: '93650', region });
  return { app, services, clock, office, kitchen, pen, pad, mug, ada, home };
}

/** Places Ada's order of [product, quantity] pairs, with an optional coupon code. */
export function placeOrder(shop, items, { coupon } = {}) {
  const cart = shop.services.carts.create(shop.ada.id);
  for (const [product, quantity] of items) shop.services.carts.addItem(cart.id, product.id, quantity);
  if (coupon) shop.services.carts.applyCoupon(cart.id, coupon);
  return shop.services.orders.place(cart.id, { addressId: shop.home.id });
}

/** Pays an order its total by card. */
export function payOrder(shop, order) {
  return shop.services.payments.capture(order.id, { method: 'card', amountCents: order.totalCents });
}
