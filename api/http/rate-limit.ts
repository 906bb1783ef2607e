import { countAuthFailure } from '../services/access/auth-failures.js';
import type { RateLimitStore } from '../store/access/rate-limits.js';
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
      undefined,
      { name: 'requests_per_minute_per_key', value: limit },
    );
  }
  return headers;
}

/** Counts one failed authentication (see services/access/auth-failures.ts); throws 429 once over the limit. */
export async function limitAuthFailures(
  store: RateLimitStore,
  max: number,
  address: string,
  publicId: string | undefined,
): Promise<void> {
  const over = await countAuthFailure(store, max, address, publicId);
  if (!over) return;
  const retryAfter = Math.max(1, over.resetAt - Math.floor(Date.now() / 1000));
  throw new HttpProblem(
    429,
    'rate_limited',
    `Too many failed authentication attempts; try again in ${retryAfter} s.`,
    undefined,
    { 'Retry-After': String(retryAfter), ...rateLimitHeaders(max, 0, retryAfter) },
    undefined,
    { name: 'auth_failures_per_minute_per_ip', value: max },
  );
}
