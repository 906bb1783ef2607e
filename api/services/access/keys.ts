import { DEFAULT_SCOPES, generateApiKey, keyIsUsable } from '../../domain/access/api-key.js';
import { domainErrors } from '../../domain/errors.js';
import { newId, nowIso } from '../../domain/ids.js';
import { recordEvent } from '../../outbox/record.js';
import type { ApiContext } from '../../context.js';
import type { EventType } from '../../schemas/webhook-events.js';
import type { AdminKeyInfo, CreateKeyBody, UpdateKeyBody } from '../../schemas/access/keys.js';
import { deleteSessionsOfKey } from '../../store/access/console-sessions.js';
import {
  findKey,
  insertKey,
  listKeys,
  markReplaced,
  writeKeyRevoked as storeRevoke,
  writeKeyChanges as storeUpdate,
  type ApiKeyRecord,
} from '../../store/access/keys.js';
import type { Knex } from 'knex';
import { reserveOrgPlace } from '../../store/access/org-counts.js';
import type { z } from '../../schemas/zod.js';

/**
 * Who manages keys: the admin token (`org` undefined: every org) or a key with the `admin` scope, which
 * reaches its own org's keys only; another org's key is "not found", exactly like a missing one.
 */
export interface KeyManager {
  org: string | undefined;
}

/** The org a key is created in when the admin token names none: the single-tenant default. */
export const DEFAULT_ORG = 'default';

export type KeyView = z.infer<typeof AdminKeyInfo>;

export function presentKey(k: ApiKeyRecord): KeyView {
  return {
    id: k.id,
    name: k.name,
    org: k.org,
    prefix: `a11y_${k.publicId}`,
    scopes: k.scopes,
    created_at: k.createdAt,
    expires_at: k.expiresAt,
    last_used_at: k.lastUsedAt,
    revoked_at: k.revokedAt,
    replaced_by: k.replacedBy,
  };
}

function newKeyRecord(
  org: string,
  name: string,
  scopes: ApiKeyRecord['scopes'],
  expiresAt: string | null,
  now: string,
): { record: ApiKeyRecord; secret: string } {
  const generated = generateApiKey();
  const record: ApiKeyRecord = {
    id: newId('key'),
    org,
    name,
    publicId: generated.publicId,
    secretHash: generated.secretHash,
    scopes,
    createdAt: now,
    expiresAt,
    revokedAt: null,
    lastUsedAt: null,
    replacedBy: null,
  };
  return { record, secret: generated.key };
}

async function keyEvent(trx: Knex, type: `key.${string}` & EventType, k: ApiKeyRecord): Promise<void> {
  await recordEvent(trx, k.org, { type, data: presentKey(k) });
}

/**
 * Creates a key and its `key.created` event in one transaction; the secret is returned once. An org
 * admin creates keys in its own org only (DomainError forbidden for another).
 */
export async function createKey(
  ctx: ApiContext,
  by: KeyManager,
  body: CreateKeyBody,
): Promise<{ view: KeyView; secret: string }> {
  if (by.org !== undefined && body.org !== undefined && body.org !== by.org) {
    throw domainErrors.forbidden('A key with the admin scope creates keys in its own org only.');
  }
  const org = by.org ?? body.org ?? DEFAULT_ORG;
  const { record, secret } = newKeyRecord(
    org,
    body.name,
    body.scopes ?? DEFAULT_SCOPES,
    body.expires_at ?? null,
    nowIso(),
  );
  await ctx.db.transaction(async (trx) => {
    await reserveOrgPlace(trx, 'keys', org, { name: 'keys_per_org', value: ctx.config.limits.keysPerOrg });
    await insertKey(trx, record);
    await keyEvent(trx, 'key.created', record);
  });
  ctx.logger.info({ key_id: record.id, org, scopes: record.scopes }, 'api key created');
  return { view: presentKey(record), secret };
}

export async function getKey(ctx: ApiContext, by: KeyManager, id: string): Promise<KeyView> {
  const k = await findKey(ctx.db, id, by.org);
  if (!k) throw domainErrors.notFound('key');
  return presentKey(k);
}

/** A page of keys, newest first: the manager's org, or (admin token) every org or the one named. */
export function listKeyPage(
  ctx: ApiContext,
  by: KeyManager,
  filterOrg: string | undefined,
  limit: number,
  after: { createdAt: string; id: string } | undefined,
): Promise<ApiKeyRecord[]> {
  return listKeys(ctx.db, by.org ?? filterOrg, limit, after);
}

/** A key that can still be changed or rotated: not revoked, not replaced. DomainError otherwise. */
function requireChangeable(k: ApiKeyRecord | undefined, now: string): ApiKeyRecord {
  if (!k) throw domainErrors.notFound('key');
  if (k.revokedAt) throw domainErrors.conflict('This key was revoked; it cannot be changed.');
  if (k.replacedBy) {
    throw domainErrors.conflict(
      `This key was rotated and replaced by ${k.replacedBy}; change that key, or revoke this one to end its grace period now.`,
    );
  }
  if (!keyIsUsable(k, now)) throw domainErrors.conflict('This key has expired; create a new one.');
  return k;
}

/** Changes name, scopes or expiry, with `key.updated`, in one transaction. */
export async function updateKey(
  ctx: ApiContext,
  by: KeyManager,
  id: string,
  body: UpdateKeyBody,
): Promise<KeyView> {
  const now = nowIso();
  const updated = await ctx.db.transaction(async (trx) => {
    const k = requireChangeable(await findKey(trx, id, by.org), now);
    const changes = { name: body.name, scopes: body.scopes, expiresAt: body.expires_at };
    // The WHERE of the update repeats "not revoked": a revocation committed meanwhile wins.
    if (!(await storeUpdate(trx, k.id, changes))) throw domainErrors.conflict('This key was revoked.');
    const after = (await findKey(trx, k.id, by.org))!;
    await keyEvent(trx, 'key.updated', after);
    return after;
  });
  ctx.logger.info({ key_id: updated.id, org: updated.org, scopes: updated.scopes }, 'api key updated');
  return presentKey(updated);
}

/**
 * Rotation: a new key (same org, name, scopes and expiry) replaces the old one, which keeps working for
 * `graceSeconds` (never past its own expiry) and then stops. One transaction with `key.rotated`; the
 * conditional update of the old key makes a second rotation of it a conflict, also when two race.
 * With a grace period the new key takes a place under `keys_per_org` like a created one (LimitError 422).
 */
export async function rotateKey(
  ctx: ApiContext,
  by: KeyManager,
  id: string,
  graceSeconds: number,
): Promise<{ view: KeyView; secret: string; replaces: { id: string; expires_at: string } }> {
  const now = nowIso();
  const graceEnd = nowIso(new Date(Date.parse(now) + graceSeconds * 1000));
  const result = await ctx.db.transaction(async (trx) => {
    const old = requireChangeable(await findKey(trx, id, by.org), now);
    const oldEnd = old.expiresAt && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
    // The old key already holds a place; during a grace period both work, so the new one needs another.
    const limit = { name: 'keys_per_org' as const, value: ctx.config.limits.keysPerOrg };
    await reserveOrgPlace(trx, 'keys', old.org, limit, oldEnd > now ? 1 : 0);
    const fresh = newKeyRecord(old.org, old.name, old.scopes, old.expiresAt, now);
    await insertKey(trx, fresh.record);
    if (!(await markReplaced(trx, old.id, fresh.record.id, oldEnd))) {
      throw domainErrors.conflict('This key was rotated or revoked meanwhile.');
    }
    await keyEvent(trx, 'key.rotated', { ...old, replacedBy: fresh.record.id, expiresAt: oldEnd });
    return { ...fresh, replaces: { id: old.id, expires_at: oldEnd } };
  });
  ctx.logger.info(
    {
      key_id: result.replaces.id,
      new_key_id: result.record.id,
      org: result.record.org,
      until: result.replaces.expires_at,
    },
    'api key rotated',
  );
  return { view: presentKey(result.record), secret: result.secret, replaces: result.replaces };
}

/**
 * Revokes a key: it stops authenticating at once, its console sessions are deleted, and `key.revoked`
 * is recorded, all in one transaction. DomainError not_found for an unknown or already revoked key.
 */
export async function revokeKey(ctx: ApiContext, by: KeyManager, id: string): Promise<void> {
  const now = nowIso();
  const revoked = await ctx.db.transaction(async (trx) => {
    const k = await findKey(trx, id, by.org);
    if (!k || !(await storeRevoke(trx, k.id, now))) return undefined;
    await deleteSessionsOfKey(trx, k.id);
    const after = { ...k, revokedAt: now };
    await keyEvent(trx, 'key.revoked', after);
    return after;
  });
  if (!revoked) throw domainErrors.notFound('key');
  ctx.logger.info({ key_id: revoked.id, org: revoked.org }, 'api key revoked');
}
