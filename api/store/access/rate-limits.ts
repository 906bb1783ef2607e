import type { Knex } from 'knex';
import { postgresKnex } from '../db.js';
import { StatementBatcher } from './statement-batcher.js';

export interface WindowCount {
  count: number;
  /** Unix seconds when the current window ends. */
  resetAt: number;
}

/**
 * Fixed one-minute windows. On PostgreSQL the counters live in the database, so every instance
 * sharing it enforces one limit; on SQLite (one process by design) they live in memory.
 */
export interface RateLimitStore {
  hit(bucket: string, windowSeconds: number): Promise<WindowCount>;
  peek(bucket: string, windowSeconds: number): Promise<WindowCount>;
  prune(): Promise<void>;
  close(): Promise<void>;
}

function windowStart(windowSeconds: number, nowMs: number): number {
  return Math.floor(nowMs / 1000 / windowSeconds) * windowSeconds;
}

/** Counters in this process's memory (SQLite: one process by design). */
export function memoryRateLimits(): RateLimitStore {
  const counts = new Map<string, number>();
  return {
    hit(bucket, windowSeconds) {
      const start = windowStart(windowSeconds, Date.now());
      const key = `${bucket}@${start}`;
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      return Promise.resolve({ count, resetAt: start + windowSeconds });
    },
    peek(bucket, windowSeconds) {
      const start = windowStart(windowSeconds, Date.now());
      return Promise.resolve({
        count: counts.get(`${bucket}@${start}`) ?? 0,
        resetAt: start + windowSeconds,
      });
    },
    prune() {
      const cutoff = Math.floor(Date.now() / 1000) - 3600;
      for (const key of counts.keys()) {
        if (Number(key.slice(key.lastIndexOf('@') + 1)) < cutoff) counts.delete(key);
      }
      return Promise.resolve();
    },
    close() {
      counts.clear();
      return Promise.resolve();
    },
  };
}

/**
 * Counters in the `rate_limits` table, shared by every instance using the database, on connections of
 * their own: every request counts, and its count must not wait behind the writes of other requests for
 * a connection. Those connections commit without waiting for the disk (`synchronous_commit = off`): a
 * crash may lose the last fraction of a second of increments, a few more requests in that minute, and
 * a commit that waits for the disk holds the counter's row lock while it does, which would put every
 * request of one key in a line. The counts of concurrent requests share statements (one per connection
 * in flight, store/access/statement-batcher.ts): each is still an atomic increment, so every request gets its
 * own exact count and concurrent instances never lose one.
 */
export function databaseRateLimits(db: Knex): RateLimitStore {
  const hits = new StatementBatcher<Hit, number>((batch) => countHits(db, batch), 2);
  return {
    async hit(bucket, windowSeconds) {
      const start = windowStart(windowSeconds, Date.now());
      const count = await hits.load({ bucket, start });
      return { count, resetAt: start + windowSeconds };
    },
    async peek(bucket, windowSeconds) {
      const start = windowStart(windowSeconds, Date.now());
      const row = await db('rate_limits')
        .where({ bucket, window_start: start })
        .first<{ count: number | string } | undefined>('count');
      return { count: row ? Number(row.count) : 0, resetAt: start + windowSeconds };
    },
    async prune() {
      await db('rate_limits')
        .where('window_start', '<', Math.floor(Date.now() / 1000) - 3600)
        .delete();
    },
    close: () => db.destroy(),
  };
}

interface Hit {
  bucket: string;
  start: number;
}

/**
 * One upsert adds each counter's hits and returns the new totals; the hits of one counter get the
 * consecutive counts that end at its total. Counters go in a fixed order, so two instances' statements
 * lock shared rows in the same order and cannot deadlock.
 */
async function countHits(db: Knex, batch: Hit[]): Promise<number[]> {
  const groups = new Map<string, { bucket: string; start: number; hits: number; next: number }>();
  const groupOfHit = batch.map((h) => {
    const key = `${h.start} ${h.bucket}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { bucket: h.bucket, start: h.start, hits: 0, next: 0 }));
    group.hits++;
    return group;
  });
  const rows = [...groups.values()]
    .sort((a, b) => a.start - b.start || (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0))
    .map((g) => ({ bucket: g.bucket, window_start: g.start, count: g.hits }));
  const totals = await db('rate_limits')
    .insert(rows)
    .onConflict(['bucket', 'window_start'])
    .merge({ count: db.raw('rate_limits.count + excluded.count') })
    .returning<Array<{ bucket: string; window_start: number | string; count: number | string }>>([
      'bucket',
      'window_start',
      'count',
    ]);
  // Hand the counts out from the lowest: the first hit of a counter in the batch gets the lowest count.
  for (const t of totals) {
    const group = groups.get(`${Number(t.window_start)} ${t.bucket}`)!;
    group.next = Number(t.count) - group.hits + 1;
  }
  return groupOfHit.map((group) => group.next++);
}

/** PostgreSQL may be shared by several instances, so its counters live in the database. */
export function rateLimitStoreFor(postgres?: { url: string; schema?: string }): RateLimitStore {
  if (!postgres) return memoryRateLimits();
  return databaseRateLimits(
    postgresKnex(postgres.url, postgres.schema, 2, (conn, done) =>
      conn.query('set synchronous_commit = off', done),
    ),
  );
}
