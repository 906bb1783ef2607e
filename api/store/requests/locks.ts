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
export interface RequestLocks {
  /** Takes the request's lock unless a live process (this one included) holds it. */
  tryHold(id: string): Promise<boolean>;
  release(id: string): Promise<void>;
  close(): Promise<void>;
}

export function createRequestLocks(url: string, namespace: string, logger: Logger): RequestLocks {
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  /** Requests this process holds (session locks are re-entrant, so the same process checks here). */
  const held = new Set<string>();

  const connection = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const c = new pg.Client({ connectionString: url });
      c.on('error', (err) => {
        // The locks went with the connection: other instances may now take these requests over.
        logger.warn({ err }, 'idempotency lock connection lost');
        if (client === c) client = undefined;
        held.clear();
      });
      try {
        await c.connect();
      } finally {
        connecting = undefined;
      }
      client = c;
      return c;
    })();
    return connecting;
  };

  return {
    async tryHold(id) {
      if (held.has(id)) return false;
      held.add(id);
      try {
        const c = await connection();
        const { rows } = await c.query<{ ok: boolean }>(
          'select pg_try_advisory_lock(hashtextextended($1, 0)) as ok',
          [`${namespace}\n${id}`],
        );
        if (!rows[0].ok) held.delete(id);
        return rows[0].ok;
      } catch (err) {
        held.delete(id);
        throw err;
      }
    },
    async release(id) {
      if (!held.delete(id)) return;
      await client
        ?.query('select pg_advisory_unlock(hashtextextended($1, 0))', [`${namespace}\n${id}`])
        .catch((err) => logger.warn({ err }, 'could not release an idempotency lock'));
    },
    async close() {
      const c = client ?? (await connecting?.catch(() => undefined));
      client = undefined;
      held.clear();
      await c?.end().catch(() => undefined);
    },
  };
}
