import { hashSecret, keyIsUsable, parseApiKey, safeEqual } from '../../domain/access/api-key.js';
import type { ApiContext } from '../../context.js';
import {
  findKeyByPublicId,
  LAST_USED_RESOLUTION_MS,
  touchKey,
  type ApiKeyRecord,
} from '../../store/access/keys.js';

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

/** Per service: when this process last wrote each key's last_used_at. */
const written = new WeakMap<ApiContext, Map<string, string>>();

/**
 * Records that a key was used, without making the request wait: at most one write a minute per key
 * (nothing at all while the stored time is fresh). The time read with the key may predate this
 * process's own write, which is still on its way (reads and writes use different connections), so the
 * later of the two decides.
 */
export function recordKeyUse(ctx: ApiContext, record: ApiKeyRecord, now: string): void {
  let mine = written.get(ctx);
  if (!mine) written.set(ctx, (mine = new Map<string, string>()));
  const ours = mine.get(record.id);
  const last = ours && (!record.lastUsedAt || ours > record.lastUsedAt) ? ours : record.lastUsedAt;
  if (last && Date.parse(now) - Date.parse(last) < LAST_USED_RESOLUTION_MS) return;
  // Bounded by the number of keys in use; forgetting only costs one more (conditional) write.
  if (mine.size >= 10_000) mine.clear();
  mine.set(record.id, now);
  touchKey(ctx.db, record.id, now, last).catch((err: unknown) => {
    ctx.logger.warn({ err }, 'could not record last_used_at');
  });
}
