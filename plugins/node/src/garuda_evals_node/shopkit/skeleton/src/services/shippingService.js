import { MemoryStore } from '../store/memoryStore.js';
import { createShipment, SHIPMENT_PREFIX } from '../entities/shipment.js';
import { ConflictError, NotFoundError } from '../util/errors.js';
import { idNumber } from '../util/ids.js';

/** "UPS-000012" for shipment shp_0012 sent with ups. */
export function trackingNumber(carrier, shipmentId) {
  return `${String(carrier).toUpperCase()}-${String(idNumber(shipmentId)).padStart(6, '0')}`;
}

/** Shipments: a paid order ships once. */
export class ShippingService {
  constructor({ clock, nextId, bus }, { orders }) {
    this.clock = clock;
    this.nextId = nextId;
    this.bus = bus;
    this.orders = orders;
    this.store = new MemoryStore('shipment');
  }

  ship(orderId, { carrier }) {
    const order = this.orders.get(orderId);
    if (order.status !== 'paid') {
      throw new ConflictError(`order ${orderId} is ${order.status}, not paid`, 'bad-status');
    }
    const id = this.nextId(SHIPMENT_PREFIX);
    const shipment = this.store.insert(
      createShipment({ orderId, carrier, trackingNumber: trackingNumber(carrier, id) }, { id, now: this.clock.now() }),
    );
    this.orders.markShipped(orderId);
    return shipment;
  }

  forOrder(orderId) {
    const shipment = this.store.findOne((s) => s.orderId === orderId);
    if (!shipment) throw new NotFoundError('shipment for order', orderId);
    return shipment;
  }
}
