export { createApp, createServices } from './app.js';
export { loadSeed } from './seed.js';
export { formatMoney, toCents } from './util/money.js';
export { fixedClock } from './util/clock.js';
