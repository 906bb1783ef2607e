import { once } from 'node:events';
import type { Writable } from 'node:stream';

/**
 * Writes a chunk, waiting for 'drain' when the socket is full, or for 'close' when the client left.
 * Whichever comes first, the listener for the other is removed (aborted): a long stream waits
 * thousands of times, and listeners left behind would pile up (MaxListenersExceededWarning).
 */
export async function writeChunk(out: Writable, chunk: string): Promise<void> {
  // A client that went away already emitted 'close': waiting for it again would hang the handler.
  if (out.destroyed) return;
  if (out.write(chunk)) return;
  if (out.destroyed) return;
  const waiting = new AbortController();
  const { signal } = waiting;
  try {
    await Promise.race([once(out, 'drain', { signal }), once(out, 'close', { signal })]);
  } finally {
    waiting.abort();
  }
}
