import { jest } from '@jest/globals';

/**
 * Controls the time the service reads, in tests that run it in-process. Only `Date` is replaced: the
 * clock moves when the test says so, while sockets, timers and the database drivers keep their real
 * timers. Call `jest.useRealTimers()` afterwards (an afterEach does it best).
 */
export function controlClock(start = Date.now()): { set(ms: number): void; now(): number } {
  let now = start;
  jest.useFakeTimers({
    now,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
  return {
    set(ms: number) {
      now = ms;
      jest.setSystemTime(ms);
    },
    now: () => now,
  };
}
