import { Writable } from 'node:stream';
import { writeChunk } from '../../../api/http/routes/scans/stream.js';

/**
 * A long streamed read waits for 'drain' thousands of times (a 20,000-issue scan to a slow client): each
 * wait must leave no listener behind, or Node warns of a leak (MaxListenersExceededWarning).
 */
describe('writing a long stream with back-pressure', () => {
  test('a hundred waits for drain leave no close or drain listener behind, and no warning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    // A slow reader: every write fills the buffer, and it drains on a later turn.
    const slow = new Writable({
      highWaterMark: 1,
      write(_chunk, _enc, cb) {
        setImmediate(cb);
      },
    });
    const received: number[] = [];
    try {
      for (let i = 0; i < 100; i++) {
        await writeChunk(slow, `chunk ${i};`);
        received.push(slow.listenerCount('close') + slow.listenerCount('drain'));
      }
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(Math.max(...received)).toBe(0);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  test('a destroyed stream is not waited for', async () => {
    const gone = new Writable({ write: (_c, _e, cb) => cb() });
    gone.destroy();
    await expect(writeChunk(gone, 'x')).resolves.toBeUndefined();
  });
});
