const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Formats a duration in milliseconds as "1h 2m 3s".
 * Zero parts are left out, except that a zero duration is "0s".
 * Milliseconds are dropped (rounded down to whole seconds).
 */
export function formatDuration(ms) {
  if (!Number.isFinite(ms) || ms < 0) {
    throw new RangeError(`not a duration: ${ms}`);
  }
  const hours = Math.floor(ms / HOUR);
  const minutes = Math.floor((ms % HOUR) / MINUTE);
  const seconds = Math.floor((ms % MINUTE) / SECOND);
  const parts = [];
  if (hours) parts.push(`${hours}h`);
  if (minutes) parts.push(`${minutes}m`);
  if (seconds || parts.length === 0) parts.push(`${seconds}s`);
  return parts.join(' ');
}

/** Sums durations and formats the total. */
export function formatTotal(durations) {
  return formatDuration(durations.reduce((sum, ms) => sum + ms, 0));
}
