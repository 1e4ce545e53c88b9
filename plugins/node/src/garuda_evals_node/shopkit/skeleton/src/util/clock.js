/** A clock that only moves when told to: tests and seeds stay reproducible. */
export function fixedClock(iso = '2024-01-01T00:00:00.000Z') {
  let current = new Date(iso).getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
      return new Date(current);
    },
    set(isoTime) {
      current = new Date(isoTime).getTime();
    },
  };
}

/** The real clock. */
export const systemClock = { now: () => new Date() };

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether `iso` lies before the clock's now. */
export function isPast(clock, iso) {
  return new Date(iso).getTime() < clock.now().getTime();
}
