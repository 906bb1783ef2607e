/**
 * Group commit for one kind of small statement that every request makes (the key lookup, the rate-limit
 * count). At most `parallel` such statements are in flight; requests that arrive meanwhile wait and are
 * answered together by the next one. Idle, each request is its own statement and waits for nothing
 * more; busy, one round trip answers dozens. A request never joins a statement already sent, so its
 * answer is at least as fresh as the request. Each statement is a database round trip and a socket
 * write, which under load cost the process more than the statements themselves.
 */
export class StatementBatcher<K, V> {
  private waiting: Array<{ key: K; resolve: (value: V) => void; reject: (err: unknown) => void }> = [];
  private inFlight = 0;

  constructor(
    /** Answers every key, in order (keys may repeat). */
    private readonly run: (keys: K[]) => Promise<V[]>,
    private readonly parallel: number,
    private readonly maxBatch = 500,
  ) {}

  load(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      this.waiting.push({ key, resolve, reject });
      this.send();
    });
  }

  private send(): void {
    while (this.inFlight < this.parallel && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      this.inFlight++;
      this.run(batch.map((w) => w.key))
        .then(
          (values) => batch.forEach((w, i) => w.resolve(values[i])),
          (err: unknown) => batch.forEach((w) => w.reject(err)),
        )
        .finally(() => {
          this.inFlight--;
          this.send();
        });
    }
  }
}
