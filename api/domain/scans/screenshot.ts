import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Element screenshots: the signature of the expiring URLs that show them without a
 * session (GitHub's image proxy and a pull request's readers hold no key). What a PNG must be is in png.ts.
 */

/** The signature of a screenshot URL: HMAC-SHA256 over the image id and the expiry (Unix seconds). */
export function screenshotSignature(key: Buffer, id: string, expires: number): string {
  return createHmac('sha256', key).update(`screenshot\n${id}\n${expires}`).digest('base64url');
}

/** Whether `signature` is the one for this id and expiry and the expiry has not passed (constant-time). */
export function validScreenshotSignature(
  key: Buffer,
  id: string,
  expires: number,
  signature: string,
  nowSeconds: number,
): boolean {
  const expected = Buffer.from(screenshotSignature(key, id, expires));
  const given = Buffer.from(signature);
  const same = given.length === expected.length && timingSafeEqual(given, expected);
  return same && expires > nowSeconds;
}
