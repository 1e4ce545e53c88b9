/** An asynchronous key-value store, like a database client. */
export class Store {
  #data = new Map();
  #log = [];

  async get(key) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (!this.#data.has(key)) throw new Error(`unknown account ${key}`);
    return this.#data.get(key);
  }

  async set(key, value) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (typeof value !== 'number' || Number.isNaN(value)) {
      throw new TypeError(`balance must be a number, got ${value}`);
    }
    this.#data.set(key, value);
    this.#log.push([key, value]);
  }

  /** Every write so far, as [key, value] pairs. */
  writes() {
    return [...this.#log];
  }
}
