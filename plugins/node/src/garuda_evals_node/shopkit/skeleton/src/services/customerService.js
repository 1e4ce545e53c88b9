import { MemoryStore } from '../store/memoryStore.js';
import { createCustomer, CUSTOMER_PREFIX } from '../entities/customer.js';
import { createAddress, ADDRESS_PREFIX } from '../entities/address.js';
import { ConflictError, NotFoundError } from '../util/errors.js';

/** Customers and their addresses. An email address registers once. */
export class CustomerService {
  constructor({ clock, nextId }) {
    this.clock = clock;
    this.nextId = nextId;
    this.store = new MemoryStore('customer');
    this.addressStore = new MemoryStore('address');
  }

  register(input) {
    const customer = createCustomer(input, { id: this.nextId(CUSTOMER_PREFIX), now: this.clock.now() });
    if (this.findByEmail(customer.email)) {
      throw new ConflictError(`email ${customer.email} is registered`, 'duplicate-email');
    }
    return this.store.insert(customer);
  }

  get(id) {
    return this.store.get(id);
  }

  findByEmail(email) {
    const wanted = String(email).toLowerCase();
    return this.store.findOne((customer) => customer.email === wanted);
  }

  /** The first word of the customer's name, for greetings. */
  firstName(customer) {
    return customer.$NAME$.split(/\s+/)[0];
  }

  addAddress(customerId, input) {
    this.get(customerId);
    const address = createAddress({ ...input, customerId }, { id: this.nextId(ADDRESS_PREFIX), now: this.clock.now() });
    return this.addressStore.insert(address);
  }

  /** One of the customer's addresses; another customer's address is not found. */
  getAddress(customerId, addressId) {
    const address = this.addressStore.get(addressId);
    if (address.customerId !== customerId) throw new NotFoundError('address', addressId);
    return address;
  }

  listAddresses(customerId) {
    return this.addressStore.list((address) => address.customerId === customerId);
  }
}
