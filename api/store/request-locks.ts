import type { Logger } from 'pino';
import pg from 'pg';

/**
 * Which requests with an Idempotency-Key are being processed by a live instance, on PostgreSQL.
 *
 * Each instance holds one session-level advisory lock per request it is processing, on a connection
 * of its own. When an instance dies (SIGKILL, lost host) PostgreSQL drops that connection and with
 * it every lock, so another instance can tell "still running somewhere" (lock held: 409) from "its
 * process is gone" (lock free: the retry takes the request over at once) without waiting for a
 * timeout. Keys are namespaced by schema, so test schemas sharing a database do not collide.
 */
export class RequestLocks {
  private client?: pg.Client;
  private connecting?: Promise<pg.Client>;
  /** Requests this process holds (session locks are re-entrant, so the same process checks here). */
  private readonly held = new Set<string>();

  constructor(
    private readonly url: string,
    private readonly namespace: string,
    private readonly logger: Logger,
  ) {}

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.url });
      client.on('error', (err) => {
        // The locks went with the connection: other instances may now take these requests over.
        this.logger.warn({ err }, 'idempotency lock connection lost');
        if (this.client === client) this.client = undefined;
        this.held.clear();
      });
      try {
        await client.connect();
      } finally {
        this.connecting = undefined;
      }
      this.client = client;
      return client;
    })();
    return this.connecting;
  }

  /** Takes the request's lock unless a live process (this one included) holds it. */
  async tryHold(id: string): Promise<boolean> {
    if (this.held.has(id)) return false;
    this.held.add(id);
    try {
      const client = await this.connection();
      const { rows } = await client.query<{ ok: boolean }>(
        'select pg_try_advisory_lock(hashtextextended($1, 0)) as ok',
        [`${this.namespace}\n${id}`],
      );
      if (!rows[0].ok) this.held.delete(id);
      return rows[0].ok;
    } catch (err) {
      this.held.delete(id);
      throw err;
    }
  }

  async release(id: string): Promise<void> {
    if (!this.held.delete(id)) return;
    await this.client
      ?.query('select pg_advisory_unlock(hashtextextended($1, 0))', [`${this.namespace}\n${id}`])
      .catch((err) => this.logger.warn({ err }, 'could not release an idempotency lock'));
  }

  async close(): Promise<void> {
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    this.held.clear();
    await client?.end().catch(() => undefined);
  }
}
