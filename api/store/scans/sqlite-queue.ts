import type { Knex } from 'knex';

/**
 * Inserts of one SQLite transaction, run in the order they are queued, each statement prepared once.
 * The driver converts a run's values on the calling thread when it is queued and runs it on its
 * worker thread when the runs before it on the same statement are done: with a few runs queued, the
 * worker goes from one batch straight to the next instead of waiting for each batch's values, and a
 * 6,500-placeholder statement is compiled once a scan instead of once a batch.
 */

interface SqliteStatement {
  run(bindings: Knex.Value[], cb: (err: Error | null) => void): void;
  finalize(cb: () => void): void;
}

interface SqliteConnection {
  prepare(sql: string, cb: (err: Error | null) => void): SqliteStatement;
}

/** Runs queued behind the one running: the worker goes on to the next while the caller prepares more. */
const DEPTH = 1;

export class SqliteInsertQueue {
  private conn: SqliteConnection | undefined;
  private readonly statements = new Map<string, SqliteStatement>();
  private pending: Array<Promise<void>> = [];
  /** The statement of the runs pending: runs of one statement keep their order, of two they may not. */
  private current: string | undefined;

  constructor(private readonly trx: Knex.Transaction) {}

  /** Queues one run of `sql` once fewer than DEPTH wait (or, to switch statements, none runs). */
  async run(sql: string, bindings: Knex.Value[]): Promise<void> {
    if (this.current !== sql) await this.settle();
    while (this.pending.length > DEPTH) await this.pending.shift();
    // The transaction client always hands out its one connection.
    this.conn ??= await (
      this.trx.client as { acquireConnection(): Promise<SqliteConnection> }
    ).acquireConnection();
    // As knex does: once the transaction has issued its ROLLBACK, a run must not go on the connection,
    // where it would commit on its own.
    if (this.trx.isCompleted()) throw new Error('Transaction query already complete');
    let statement = this.statements.get(sql);
    if (!statement) {
      // A failed prepare fails the runs queued on it; the callback only keeps it from being thrown.
      statement = this.conn.prepare(sql, () => undefined);
      this.statements.set(sql, statement);
    }
    this.current = sql;
    const stmt = statement;
    const done = new Promise<void>((resolve, reject) => {
      stmt.run(bindings, (err) => (err ? reject(err) : resolve()));
    });
    // The driver has copied the values: they need not live until the run ends.
    bindings.length = 0;
    // Handled when awaited; this only stops it from counting as unhandled in between.
    done.catch(() => undefined);
    this.pending.push(done);
  }

  /** Waits for every queued run (all of them, even after a failure), then throws the first error. */
  async settle(): Promise<void> {
    const results = await Promise.allSettled(this.pending);
    this.pending = [];
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Settles, then finalizes the statements (a connection cannot close with one open). Must end every
   * queue before its transaction does: a ROLLBACK issued while runs are queued would come before them.
   */
  async close(): Promise<void> {
    try {
      await this.settle();
    } finally {
      const statements = [...this.statements.values()];
      this.statements.clear();
      await Promise.all(statements.map((s) => new Promise<void>((resolve) => s.finalize(resolve))));
    }
  }
}
