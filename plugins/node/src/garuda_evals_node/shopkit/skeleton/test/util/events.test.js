import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventBus } from '../../src/util/events.js';
import { fixedClock } from '../../src/util/clock.js';

test('handlers run in order inside emit', () => {
  const bus = new EventBus();
  const seen = [];
  bus.on('a', (p) => seen.push(['first', p]));
  bus.on('a', (p) => seen.push(['second', p]));
  bus.emit('a', 1);
  assert.deepEqual(seen, [['first', 1], ['second', 1]]);
});

test('off and once', () => {
  const bus = new EventBus();
  let count = 0;
  const off = bus.on('x', () => { count += 1; });
  bus.once('x', () => { count += 10; });
  bus.emit('x');
  off();
  bus.emit('x');
  assert.equal(count, 11);
});

test('history records events with the clock time', () => {
  const bus = new EventBus({ clock: fixedClock('2024-05-01T10:00:00Z') });
  bus.emit('order.placed', { orderId: 'ord_0001' });
  bus.emit('other', {});
  assert.deepEqual(bus.history('order.placed'), [
    { type: 'order.placed', payload: { orderId: 'ord_0001' }, at: '2024-05-01T10:00:00.000Z' },
  ]);
  assert.equal(bus.history().length, 2);
});
