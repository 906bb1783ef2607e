/**
 * Resolves after the event loop has run what was waiting: long work (a large scan read, streamed or
 * folded) awaits it between batches so other requests are answered meanwhile.
 */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
