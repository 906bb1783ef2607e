import { WriteQueue, WriteQueueTimeout } from '../../api/write-queue.js';
import { nextTurn } from '../../api/domain/turns.js';

/** Resolves after the current microtasks, so a turn handed over has been taken. */

describe('the write queue', () => {
  it('lets `concurrency` writes work at once and starts the others in arrival order', async () => {
    const queue = new WriteQueue(2, 10_000);
    const started: number[] = [];
    const leaves: Array<() => void> = [];
    const turns = [1, 2, 3, 4, 5].map((n) =>
      queue.enter().then((leave) => {
        started.push(n);
        leaves[n] = leave;
      }),
    );
    await nextTurn();
    expect(started).toEqual([1, 2]);
    expect(queue.size).toEqual({ running: 2, waiting: 3 });

    leaves[2]();
    await nextTurn();
    expect(started).toEqual([1, 2, 3]);
    leaves[1]();
    leaves[3]();
    await nextTurn();
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(queue.size).toEqual({ running: 2, waiting: 0 });
    leaves[4]();
    leaves[5]();
    await Promise.all(turns);
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
  });

  it('counts a turn ended twice once', async () => {
    const queue = new WriteQueue(1, 10_000);
    const first = await queue.enter();
    const second = queue.enter();
    first();
    first();
    const leave = await second;
    expect(queue.size).toEqual({ running: 1, waiting: 0 });
    const third = queue.enter();
    await nextTurn();
    expect(queue.size).toEqual({ running: 1, waiting: 1 });
    leave();
    (await third)();
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a write that could not start within the wait, and it does not keep a place', async () => {
    const queue = new WriteQueue(1, 30);
    const leave = await queue.enter();
    await expect(queue.enter()).rejects.toBeInstanceOf(WriteQueueTimeout);
    expect(queue.size).toEqual({ running: 1, waiting: 0 });
    leave();
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
    (await queue.enter())();
  });
});
