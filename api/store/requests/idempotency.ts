import type { Knex } from 'knex';
import type { RequestLocks } from './locks.js';

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type BeginResult =
  | { state: 'started' }
  | { state: 'replay'; response: StoredResponse }
  | { state: 'mismatch' }
  | { state: 'in_progress' };

/**
 * How long a started request holds its key before a retry may take it over (crash recovery), where
 * nothing better tells whether its process is alive. On PostgreSQL with RequestLocks, and on SQLite
 * after a restart (releaseAbandoned), a dead process's requests are taken over at once.
 */
const LOCK_MS = 5 * 60_000;
/** Replays are honoured for 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/**
 * Requests with an Idempotency-Key, keyed by (principal, key). `locks` (PostgreSQL) tells a live
 * process's request from a dead one's at once; without it a started request is taken over after LOCK_MS.
 */
export async function beginIdempotentRequest(
  db: Knex,
  locks: RequestLocks | undefined,
  principal: string,
  key: string,
  requestHash: string,
  now = new Date(),
): Promise<BeginResult> {
  if (!locks) return beginRow(db, principal, key, requestHash, now, false);
  const id = lockId(principal, key);
  if (!(await locks.tryHold(id))) {
    // A live process is running this key: the same answers as without locks, minus the takeover.
    const row = await db<KeyRow>('idempotency_keys').where({ principal, idempotency_key: key }).first();
    if (row && row.request_hash !== requestHash) return { state: 'mismatch' };
    if (row?.state === 'done') return { state: 'replay', response: storedResponse(row) };
    return { state: 'in_progress' };
  }
  try {
    // Holding the lock, a row still marked started belongs to a process that is gone.
    const result = await beginRow(db, principal, key, requestHash, now, true);
    if (result.state !== 'started') await locks.release(id);
    return result;
  } catch (err) {
    await locks.release(id);
    throw err;
  }
}

async function beginRow(
  db: Knex,
  principal: string,
  key: string,
  requestHash: string,
  now: Date,
  ownerGone: boolean,
): Promise<BeginResult> {
  const nowIso = now.toISOString();
  const lockedUntil = new Date(now.getTime() + LOCK_MS).toISOString();
  const inserted = (await db('idempotency_keys')
    .insert({
      principal,
      idempotency_key: key,
      request_hash: requestHash,
      state: 'started',
      created_at: nowIso,
      locked_until: lockedUntil,
    })
    .onConflict(['principal', 'idempotency_key'])
    .ignore()
    .returning('principal')) as unknown[];
  if (inserted.length > 0) return { state: 'started' };

  const row = await db<KeyRow>('idempotency_keys').where({ principal, idempotency_key: key }).first();
  if (!row) return beginRow(db, principal, key, requestHash, now, ownerGone);
  const expired = Date.parse(row.created_at) + IDEMPOTENCY_TTL_MS < now.getTime();
  if (expired) {
    await db('idempotency_keys').where({ principal, idempotency_key: key }).delete();
    return beginRow(db, principal, key, requestHash, now, ownerGone);
  }
  if (row.request_hash !== requestHash) return { state: 'mismatch' };
  if (row.state === 'done') return { state: 'replay', response: storedResponse(row) };
  // A started request whose process is gone (or whose lock ran out) is taken over.
  const takeover = db('idempotency_keys').where({ principal, idempotency_key: key, state: 'started' });
  if (!ownerGone) takeover.andWhere('locked_until', '<', nowIso);
  const taken = await takeover.update({ locked_until: lockedUntil });
  return taken > 0 ? { state: 'started' } : { state: 'in_progress' };
}

export async function completeIdempotentRequest(
  db: Knex,
  locks: RequestLocks | undefined,
  principal: string,
  key: string,
  response: StoredResponse,
): Promise<void> {
  try {
    await db('idempotency_keys')
      .where({ principal, idempotency_key: key })
      .update({
        state: 'done',
        response_status: response.status,
        response_headers: JSON.stringify(response.headers),
        response_body: response.body,
        locked_until: null,
      });
  } finally {
    await locks?.release(lockId(principal, key));
  }
}

/** The request failed: forget the key so a corrected retry can use it. */
export async function releaseIdempotentRequest(
  db: Knex,
  locks: RequestLocks | undefined,
  principal: string,
  key: string,
): Promise<void> {
  try {
    await db('idempotency_keys').where({ principal, idempotency_key: key, state: 'started' }).delete();
  } finally {
    await locks?.release(lockId(principal, key));
  }
}

/**
 * Forgets every request still marked as started. Only for a process that has just opened a SQLite
 * database (one process per file by design): those requests belonged to a process that died
 * (SIGKILL, power loss) and will never complete, and without this a CI client retrying with the
 * same key would get 409 until the lock ran out (LOCK_MS). The retry runs the request again: if
 * the dead process had committed it, that is a second copy, which is the at-least-once a retry
 * after a crash can promise.
 */
export async function releaseAbandonedRequests(db: Knex): Promise<number> {
  return db('idempotency_keys').where({ state: 'started' }).delete();
}

export async function pruneIdempotencyKeys(db: Knex, now = new Date()): Promise<void> {
  await db('idempotency_keys')
    .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString())
    .delete();
}

function lockId(principal: string, key: string): string {
  return `${principal}\n${key}`;
}

interface KeyRow {
  principal: string;
  idempotency_key: string;
  request_hash: string;
  state: 'started' | 'done';
  created_at: string;
  locked_until: string | null;
  response_status: number;
  response_headers: string | null;
  response_body: string | null;
}

function storedResponse(row: KeyRow): StoredResponse {
  return {
    status: row.response_status,
    // Written by this file from a StoredResponse's headers.
    headers: JSON.parse(row.response_headers ?? '{}') as StoredResponse['headers'],
    body: row.response_body ?? '',
  };
}
