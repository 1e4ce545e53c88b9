import { formatMoney } from '../util/money.js';

/** A product as the API shows it; `stock` is added when known. */
export function serializeProduct(product, { stock } = {}) {
  const body = {
    id: product.id,
    sku: product.sku,
    name: product.name,
    priceCents: product.priceCents,
    price: formatMoney(product.priceCents),
    categoryId: product.categoryId,
    active: product.active,
  };
  if (stock !== undefined) body.stock = stock;
  return body;
}

export function serializeCustomer(customer) {
  return { id: customer.id, email: customer.email, $NAME$: customer.$NAME$, phone: customer.phone };
}

/** A cart with its quote. */
export function serializeCart(cart, quote) {
  return {
    id: cart.id,
    customerId: cart.customerId,
    couponCode: cart.couponCode,
    lines: quote.lines,
    subtotalCents: quote.subtotalCents,
    discountCents: quote.discountCents,
    taxCents: quote.taxCents,
    shippingCents: quote.shippingCents,
    totalCents: quote.totalCents,
    total: formatMoney(quote.totalCents),
  };
}

export function serializeOrder(order) {
  return { ...order, lines: order.lines.map((line) => ({ ...line })), total: formatMoney(order.totalCents) };
}

export function serializePayment(payment) {
  return { ...payment, amount: formatMoney(payment.amountCents) };
}
