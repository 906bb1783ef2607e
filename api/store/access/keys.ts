import type { Knex } from 'knex';
import type { Scope } from '../../domain/access/api-key.js';
import { newestFirst } from '../keyset.js';
import { StatementBatcher } from './statement-batcher.js';

export interface ApiKeyRecord {
  id: string;
  org: string;
  name: string;
  publicId: string;
  secretHash: string;
  scopes: Scope[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /** Set when the key was rotated: the id of the key that replaced it. */
  replacedBy: string | null;
}

/** The fields a key's owner may change. */
export interface KeyChanges {
  name?: string;
  scopes?: Scope[];
  expiresAt?: string | null;
}

interface Row {
  id: string;
  org: string;
  name: string;
  public_id: string;
  secret_hash: string;
  scopes: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  replaced_by: string | null;
}

function fromRow(r: Row): ApiKeyRecord {
  return {
    id: r.id,
    org: r.org,
    name: r.name,
    publicId: r.public_id,
    secretHash: r.secret_hash,
    scopes: JSON.parse(r.scopes) as Scope[],
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    lastUsedAt: r.last_used_at,
    replacedBy: r.replaced_by,
  };
}

export async function insertKey(db: Knex, k: ApiKeyRecord): Promise<void> {
  await db<Row>('api_keys').insert({
    id: k.id,
    org: k.org,
    name: k.name,
    public_id: k.publicId,
    secret_hash: k.secretHash,
    scopes: JSON.stringify(k.scopes),
    created_at: k.createdAt,
    expires_at: k.expiresAt,
    revoked_at: k.revokedAt,
    last_used_at: k.lastUsedAt,
    replaced_by: k.replacedBy,
  });
}

const lookups = new WeakMap<Knex, StatementBatcher<string, ApiKeyRecord | undefined>>();

/**
 * The key a presented credential names (any org: the credential itself says which). Every request makes
 * this lookup, so the lookups of concurrent requests share statements (store/access/statement-batcher.ts).
 */
export async function findKeyByPublicId(db: Knex, publicId: string): Promise<ApiKeyRecord | undefined> {
  let batcher = lookups.get(db);
  if (!batcher) {
    batcher = new StatementBatcher((ids) => keysByPublicId(db, ids), 2);
    lookups.set(db, batcher);
  }
  return batcher.load(publicId);
}

async function keysByPublicId(db: Knex, publicIds: string[]): Promise<Array<ApiKeyRecord | undefined>> {
  const rows = await db<Row>('api_keys').whereIn('public_id', [...new Set(publicIds)]);
  const byId = new Map(rows.map((r) => [r.public_id, r]));
  return publicIds.map((id) => {
    const row = byId.get(id);
    return row ? fromRow(row) : undefined;
  });
}

/** One key by id, within `org` (undefined: any org, for the admin token). */
export async function findKey(
  db: Knex,
  id: string,
  org: string | undefined,
): Promise<ApiKeyRecord | undefined> {
  const q = db<Row>('api_keys').where({ id });
  if (org !== undefined) q.andWhere({ org });
  const row = await q.first();
  return row ? fromRow(row) : undefined;
}

/** Keyset page ordered by (created_at, id) descending, within `org` (undefined: every org). */
export async function listKeys(
  db: Knex,
  org: string | undefined,
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<ApiKeyRecord[]> {
  const q = db<Row>('api_keys');
  if (org !== undefined) q.where({ org });
  newestFirst(q, 'created_at', limit, after && { at: after.createdAt, id: after.id });
  return (await q).map(fromRow);
}

/** Changes a key that is not revoked; false when there is none such. */
export async function writeKeyChanges(db: Knex, id: string, changes: KeyChanges): Promise<boolean> {
  const set: Partial<Row> = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.scopes !== undefined) set.scopes = JSON.stringify(changes.scopes);
  if (changes.expiresAt !== undefined) set.expires_at = changes.expiresAt;
  if (Object.keys(set).length === 0) return true;
  return (await db<Row>('api_keys').where({ id }).whereNull('revoked_at').update(set)) > 0;
}

/**
 * Marks a key as replaced by a rotation and lets it expire at `expiresAt`. Only a key still unreplaced
 * and unrevoked is changed (false otherwise), so two rotations of one key cannot both succeed.
 */
export async function markReplaced(
  db: Knex,
  id: string,
  replacedBy: string,
  expiresAt: string,
): Promise<boolean> {
  const n = await db<Row>('api_keys')
    .where({ id })
    .whereNull('revoked_at')
    .whereNull('replaced_by')
    .update({ replaced_by: replacedBy, expires_at: expiresAt });
  return n > 0;
}

/** Returns false when the key does not exist or was already revoked. */
export async function writeKeyRevoked(db: Knex, id: string, at: string): Promise<boolean> {
  return (await db<Row>('api_keys').where({ id }).whereNull('revoked_at').update({ revoked_at: at })) > 0;
}

/** A minute: last_used_at is written at most this often per key, never once per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Records that a key was used. Nothing is written when the stored time (as read with the key) is less
 * than a minute old; otherwise one conditional update, which is a no-op when another request wrote first.
 * Returns whether a write was attempted.
 */
export async function touchKey(db: Knex, id: string, at: string, previous: string | null): Promise<boolean> {
  const cutoff = new Date(Date.parse(at) - LAST_USED_RESOLUTION_MS).toISOString();
  if (previous && previous > cutoff) return false;
  await db<Row>('api_keys')
    .where({ id })
    .andWhere((w) => {
      w.whereNull('last_used_at').orWhere('last_used_at', '<=', cutoff);
    })
    .update({ last_used_at: at });
  return true;
}
