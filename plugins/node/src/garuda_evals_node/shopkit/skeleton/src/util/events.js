/**
 * A synchronous event bus. Handlers run in the order they subscribed, inside `emit`,
 * so that a service sees the effects of an event as soon as `emit` returns.
 */
export class EventBus {
  #handlers = new Map();
  #history = [];

  constructor({ clock } = {}) {
    this.clock = clock;
  }

  /** Subscribes `handler` to events of `type`; returns a function that unsubscribes. */
  on(type, handler) {
    const list = this.#handlers.get(type) ?? [];
    this.#handlers.set(type, [...list, handler]);
    return () => this.off(type, handler);
  }

  off(type, handler) {
    const list = this.#handlers.get(type) ?? [];
    this.#handlers.set(type, list.filter((h) => h !== handler));
  }

  /** Subscribes for the next event of `type` only. */
  once(type, handler) {
    const off = this.on(type, (payload) => {
      off();
      handler(payload);
    });
    return off;
  }

  /** Records the event, then calls every handler of `type` with `payload`. */
  emit(type, payload) {
    const at = this.clock ? this.clock.now().toISOString() : null;
    this.#history.push({ type, payload, at });
    for (const handler of this.#handlers.get(type) ?? []) handler(payload);
  }

  /** Every event emitted so far, optionally only those of `type`. */
  history(type) {
    return this.#history.filter((event) => type === undefined || event.type === type);
  }
}
