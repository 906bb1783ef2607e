import { createHash } from 'node:crypto';
import type { RateLimitStore } from '../store/rate-limits.js';
import { HttpProblem } from './problem.js';

/** IETF draft `RateLimit` / `RateLimit-Policy` fields, plus the widely used `RateLimit-*` trio. */
export function rateLimitHeaders(
  limit: number,
  remaining: number,
  resetSeconds: number,
): Record<string, string> {
  return {
    RateLimit: `limit=${limit}, remaining=${remaining}, reset=${resetSeconds}`,
    'RateLimit-Policy': `${limit};w=60`,
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(remaining),
    'RateLimit-Reset': String(resetSeconds),
  };
}

/** Counts one request against the key's per-minute budget; throws 429 once it is spent. */
export async function consumeKeyBudget(
  store: RateLimitStore,
  keyId: string,
  limit: number,
): Promise<Record<string, string>> {
  const { count, resetAt } = await store.hit(`key:${keyId}`, 60);
  const reset = Math.max(1, resetAt - Math.floor(Date.now() / 1000));
  const headers = rateLimitHeaders(limit, Math.max(0, limit - count), reset);
  if (count > limit) {
    throw new HttpProblem(
      429,
      'rate_limited',
      `Rate limit of ${limit} requests per minute exceeded; try again in ${reset} s.`,
      undefined,
      { ...headers, 'Retry-After': String(reset) },
    );
  }
  return headers;
}

/**
 * Counts one failed authentication against the client's address and, when the credential names a key
 * id, against that key id (guesses at one key from many addresses). Called only after the credential
 * was found invalid, so a valid key or admin token is never refused by someone else's failures.
 * The address is hashed into the bucket name: an `X-Forwarded-For` value can be any length.
 */
export async function countAuthFailure(
  store: RateLimitStore,
  max: number,
  address: string,
  publicId: string | undefined,
): Promise<void> {
  const buckets = [`authfail:ip:${createHash('sha256').update(address).digest('hex').slice(0, 40)}`];
  if (publicId) buckets.push(`authfail:key:${publicId}`);
  const counts = await Promise.all(buckets.map((b) => store.hit(b, 60)));
  const over = counts.find((c) => c.count > max);
  if (!over) return;
  const retryAfter = Math.max(1, over.resetAt - Math.floor(Date.now() / 1000));
  throw new HttpProblem(
    429,
    'rate_limited',
    `Too many failed authentication attempts; try again in ${retryAfter} s.`,
    undefined,
    { 'Retry-After': String(retryAfter), ...rateLimitHeaders(max, 0, retryAfter) },
  );
}
