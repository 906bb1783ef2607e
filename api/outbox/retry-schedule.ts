/**
 * Delay before each attempt: about immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 24 h.
 * The first entry is the first attempt; a delivery that fails its last attempt is given up.
 */
export const DEFAULT_RETRY_DELAYS_MS = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  24 * 3_600_000,
];

/** Longest `Retry-After` we honour; a receiver cannot park a delivery for longer than a day. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * When to try again after `attemptsMade` failed attempts, or `undefined` when there are none left.
 * ±20 % jitter spreads retries so a receiver that comes back is not hit by every delivery at once;
 * a `Retry-After` from the receiver is honoured when it asks for longer than the schedule.
 */
export function nextRetryDelay(
  attemptsMade: number,
  schedule: number[] = DEFAULT_RETRY_DELAYS_MS,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number | undefined {
  if (attemptsMade >= schedule.length) return undefined;
  const base = schedule[attemptsMade];
  const jittered = Math.round(base * (0.8 + 0.4 * random()));
  if (retryAfterMs !== undefined) return Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
  return jittered;
}
