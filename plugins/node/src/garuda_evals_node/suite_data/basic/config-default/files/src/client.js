import { loadConfig } from './config.js';

/** Plans the attempts of a request; the transport is left to the caller. */
export function planRequest(path, overrides = {}) {
  const config = loadConfig(overrides);
  if (!Number.isInteger(config.timeoutMs) || config.timeoutMs < 0) {
    throw new TypeError(`timeoutMs must be a non-negative integer, got ${config.timeoutMs}`);
  }
  const attempts = config.retries + 1;
  return {
    url: new URL(path, config.baseUrl).href,
    attempts,
    deadlineMs: config.timeoutMs === 0 ? Infinity : attempts * config.timeoutMs,
    headers: { 'user-agent': config.userAgent },
    log: config.verbose ? [`GET ${path} (${attempts} attempt(s))`] : [],
  };
}
