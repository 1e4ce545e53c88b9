import { Router } from './api/router.js';
import { registerCartRoutes } from './api/routes/carts.js';
import { registerCategoryRoutes } from './api/routes/categories.js';
import { registerCouponRoutes } from './api/routes/coupons.js';
import { registerCustomerRoutes } from './api/routes/customers.js';
import { registerInventoryRoutes } from './api/routes/inventory.js';
import { registerOrderRoutes } from './api/routes/orders.js';
import { registerPaymentRoutes } from './api/routes/payments.js';
import { registerProductRoutes } from './api/routes/products.js';
import { registerReportRoutes } from './api/routes/reports.js';
import { registerReviewRoutes } from './api/routes/reviews.js';
import { registerShipmentRoutes } from './api/routes/shipments.js';
import { CartService } from './services/cartService.js';
import { CategoryService } from './services/categoryService.js';
import { CouponService } from './services/couponService.js';
import { CustomerService } from './services/customerService.js';
import { InventoryService } from './services/inventoryService.js';
import { NotificationService } from './services/notificationService.js';
import { OrderService } from './services/orderService.js';
import { PaymentService } from './services/paymentService.js';
import { PricingService } from './services/pricingService.js';
import { ProductService } from './services/productService.js';
import { ReportService } from './services/reportService.js';
import { ReviewService } from './services/reviewService.js';
import { ShippingService } from './services/shippingService.js';
import { TaxService } from './services/taxService.js';
import { fixedClock } from './util/clock.js';
import { EventBus } from './util/events.js';
import { createIdGenerator } from './util/ids.js';

const ROUTES = [
  registerCategoryRoutes,
  registerProductRoutes,
  registerInventoryRoutes,
  registerReviewRoutes,
  registerCustomerRoutes,
  registerCartRoutes,
  registerCouponRoutes,
  registerOrderRoutes,
  registerPaymentRoutes,
  registerShipmentRoutes,
  registerReportRoutes,
];

/** Wires the services together. Every app has its own ids, event bus and data. */
export function createServices({ clock = fixedClock() } = {}) {
  const context = { clock, bus: new EventBus({ clock }), nextId: createIdGenerator() };
  const categories = new CategoryService(context);
  const products = new ProductService(context, { categories });
  const customers = new CustomerService(context);
  const inventory = new InventoryService(context, { products });
  const coupons = new CouponService(context);
  const tax = new TaxService();
  const pricing = new PricingService({ products, coupons, tax });
  const carts = new CartService(context, { products, customers, coupons, pricing });
  const orders = new OrderService(context, { carts, customers, inventory });
  const payments = new PaymentService(context, { orders, inventory });
  const shipping = new ShippingService(context, { orders });
  const notifications = new NotificationService(context, { orders, customers });
  const reviews = new ReviewService(context, { products, customers, orders });
  const reports = new ReportService({ orders, products, categories, customers });
  return {
    bus: context.bus,
    services: {
      categories, products, customers, inventory, coupons, tax, pricing, carts, orders,
      payments, shipping, notifications, reviews, reports,
    },
  };
}

/** The shop: services, event bus and a router that answers { method, path, body } requests. */
export function createApp({ clock = fixedClock() } = {}) {
  const { bus, services } = createServices({ clock });
  const router = new Router();
  for (const register of ROUTES) register(router, services);
  return { clock, bus, services, router, handle: (request) => router.handle(request) };
}
