import { ConflictError, NotFoundError } from '../util/errors.js';

/** An in-memory table of frozen records keyed by `id`, listed in insertion order. */
export class MemoryStore {
  #rows = new Map();

  constructor(kind) {
    this.kind = kind;
  }

  insert(record) {
    if (this.#rows.has(record.id)) throw new ConflictError(`${this.kind} ${record.id} exists`);
    this.#rows.set(record.id, record);
    return record;
  }

  /** The record with `id`; a missing one is a NotFoundError. */
  get(id) {
    const record = this.#rows.get(id);
    if (!record) throw new NotFoundError(this.kind, id);
    return record;
  }

  find(id) {
    return this.#rows.get(id);
  }

  /** Replaces a stored record with `record` (same id). */
  replace(record) {
    this.get(record.id);
    this.#rows.set(record.id, record);
    return record;
  }

  remove(id) {
    this.get(id);
    this.#rows.delete(id);
  }

  /** Every record, or those for which `where(record)` is true. */
  list(where = () => true) {
    return [...this.#rows.values()].filter(where);
  }

  findOne(where) {
    return this.list(where)[0];
  }

  count() {
    return this.#rows.size;
  }
}
