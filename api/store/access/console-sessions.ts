import type { Knex } from 'knex';
import type { Scope } from '../../domain/access/api-key.js';
import { dialectOf } from '../db.js';

/** A console session as stored: the hash of its cookie token, the key it was opened with, its expiry. */
export interface ConsoleSessionRecord {
  tokenHash: string;
  keyId: string;
  org: string;
  createdAt: string;
  expiresAt: string;
}

/** A session read together with the state of its key, so a revoked key ends its sessions at once. */
export interface SessionWithKey extends ConsoleSessionRecord {
  keyName: string;
  scopes: Scope[];
  keyRevokedAt: string | null;
  keyExpiresAt: string | null;
}

interface JoinedRow {
  token_hash: string;
  key_id: string;
  org: string;
  created_at: string;
  expires_at: string;
  key_name: string;
  scopes: string;
  key_revoked_at: string | null;
  key_expires_at: string | null;
}

export async function insertSession(db: Knex, s: ConsoleSessionRecord): Promise<void> {
  await db('console_sessions').insert({
    token_hash: s.tokenHash,
    key_id: s.keyId,
    org: s.org,
    created_at: s.createdAt,
    expires_at: s.expiresAt,
  });
}

/**
 * Ends the oldest sessions of a key beyond the newest `keep` (a key signs in from many browsers, but
 * not without bound). Returns how many ended. Call it in the transaction that inserted the new session:
 * on PostgreSQL it first takes a per-key lock held to commit, so a sign-in at the same moment waits and
 * then sees this one's session; without it each would keep its own newest and both survive.
 */
export async function endOldestSessions(trx: Knex.Transaction, keyId: string, keep: number): Promise<number> {
  if (dialectOf(trx) === 'postgres') {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`a11y-gate console sessions ${keyId}`]);
  }
  const kept = trx('console_sessions')
    .where({ key_id: keyId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'token_hash', order: 'desc' },
    ])
    .limit(keep)
    .select('token_hash');
  return trx('console_sessions').where({ key_id: keyId }).whereNotIn('token_hash', kept).delete();
}

export async function findSessionWithKey(db: Knex, tokenHash: string): Promise<SessionWithKey | undefined> {
  const row = await db('console_sessions as s')
    .join('api_keys as k', 'k.id', 's.key_id')
    .where('s.token_hash', tokenHash)
    .first<JoinedRow | undefined>(
      's.token_hash',
      's.key_id',
      's.org',
      's.created_at',
      's.expires_at',
      'k.name as key_name',
      'k.scopes',
      'k.revoked_at as key_revoked_at',
      'k.expires_at as key_expires_at',
    );
  if (!row) return undefined;
  return {
    tokenHash: row.token_hash,
    keyId: row.key_id,
    org: row.org,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    keyName: row.key_name,
    scopes: JSON.parse(row.scopes) as Scope[],
    keyRevokedAt: row.key_revoked_at,
    keyExpiresAt: row.key_expires_at,
  };
}

export async function deleteSession(db: Knex, tokenHash: string): Promise<void> {
  await db('console_sessions').where({ token_hash: tokenHash }).delete();
}

/** Every session opened with a key (its revocation ends them all). */
export async function deleteSessionsOfKey(db: Knex, keyId: string): Promise<number> {
  return db('console_sessions').where({ key_id: keyId }).delete();
}

export async function deleteExpiredSessions(db: Knex, now: string): Promise<number> {
  return db('console_sessions').where('expires_at', '<=', now).delete();
}
