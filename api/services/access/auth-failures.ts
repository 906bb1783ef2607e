import { createHash } from 'node:crypto';
import type { RateLimitStore, WindowCount } from '../../store/access/rate-limits.js';

/**
 * Failed authentications, counted the same way for the API and the console's sign-in form: one failure
 * counts against the client's address and, when the credential names a key id, against that key id
 * (guesses at one key from many addresses). Callers count only after the credential was found invalid,
 * so a valid key or admin token is never refused by someone else's failures. The address is hashed into
 * the bucket name: an `X-Forwarded-For` value can be any length.
 */
export async function countAuthFailure(
  store: RateLimitStore,
  max: number,
  address: string,
  publicId: string | undefined,
): Promise<WindowCount | undefined> {
  const buckets = [`authfail:ip:${createHash('sha256').update(address).digest('hex').slice(0, 40)}`];
  if (publicId) buckets.push(`authfail:key:${publicId}`);
  const counts = await Promise.all(buckets.map((b) => store.hit(b, 60)));
  return counts.find((c) => c.count > max);
}
