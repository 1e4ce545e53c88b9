export const DEFAULTS = Object.freeze({
  baseUrl: 'http://localhost:8080',
  retries: 3,
  verbose: true,
  userAgent: 'basic-client/1.0',
});

/** The client's settings: `overrides` on top of DEFAULTS. Unknown keys are errors. */
export function loadConfig(overrides = {}) {
  for (const key of Object.keys(overrides)) {
    if (!(key in DEFAULTS)) throw new TypeError(`unknown config key: ${key}`);
  }
  const config = {};
  for (const [key, fallback] of Object.entries(DEFAULTS)) {
    config[key] = overrides[key] || fallback;
  }
  return Object.freeze(config);
}
