import { hashSecret, keyIsUsable, parseApiKey, safeEqual } from '../domain/api-key.js';
import type { ApiContext } from '../context.js';
import { findKeyByPublicId, touchKey, type ApiKeyRecord } from '../store/keys.js';

/**
 * The one check every way of authenticating with a key goes through (API requests and console
 * sign-in): well-formed with a valid checksum, the hash compared in constant time, not revoked, not past
 * its expiry (a rotated key's expiry is the end of its grace period). Undefined for any refusal.
 */
export async function verifyKey(
  ctx: ApiContext,
  presented: string | undefined,
  now: string,
): Promise<ApiKeyRecord | undefined> {
  const parsed = presented ? parseApiKey(presented.trim()) : null;
  if (!parsed) return undefined;
  const record = await findKeyByPublicId(ctx.db, parsed.publicId);
  // Hash and compare even when the row is missing, so timing does not reveal which ids exist.
  const expected = record?.secretHash ?? hashSecret('no such key');
  const matches = safeEqual(hashSecret(parsed.key), expected);
  if (!record || !matches || !keyIsUsable(record, now)) return undefined;
  return record;
}

/**
 * Records that a key was used, without making the request wait: at most one write a minute per key
 * (nothing at all while the stored time is fresh).
 */
export function recordKeyUse(ctx: ApiContext, record: ApiKeyRecord, now: string): void {
  touchKey(ctx.db, record.id, now, record.lastUsedAt).catch((err: unknown) => {
    ctx.logger.warn({ err }, 'could not record last_used_at');
  });
}
