/**
 * `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP date, as milliseconds from `now`; null when
 * absent or unreadable. Read by the API client on the service's answers and by the webhook worker on a
 * receiver's.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}
