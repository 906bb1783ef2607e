/**
 * Admission for the heavy writes (scan submits, scan parts, gate triggers): at most `concurrency` of
 * them are worked on at once in this process, the others wait in arrival order (their body received,
 * not yet parsed). Node runs every request on one thread, so without this a burst of writes
 * interleaves its parsing, validation and matching with every cheap read, and the reads' latency grows
 * with the number of writes in flight; waiting writes cost no CPU and hold only their bytes. A write
 * that cannot start within `maxWaitMs` is refused (the API answers 503 with Retry-After).
 */
export class WriteQueue {
  private running = 0;
  private readonly waiting: Array<{ start: () => void; timer: NodeJS.Timeout }> = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaitMs: number,
  ) {}

  /** Resolves when the write may start; the returned function ends its turn (idempotent). */
  async enter(): Promise<() => void> {
    if (this.running < this.concurrency) {
      this.running++;
      return this.turn();
    }
    await new Promise<void>((resolve, reject) => {
      const entry = {
        start: () => {
          clearTimeout(entry.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(new WriteQueueTimeout(this.maxWaitMs));
        }, this.maxWaitMs),
      };
      this.waiting.push(entry);
    });
    // The finishing write handed its place over, so `running` is already counted for this one.
    return this.turn();
  }

  /** Writes working and waiting. */
  get size(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private turn(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      if (next) next.start();
      else this.running--;
    };
  }
}

export class WriteQueueTimeout extends Error {
  override name = 'WriteQueueTimeout';
  constructor(readonly waitedMs: number) {
    super(`no turn in the write queue within ${waitedMs} ms`);
  }
}
