/**
 * When a POST is tried again: which answers are transient, how long to wait (exponential backoff with
 * jitter, or the service's Retry-After), and how a network failure reads in the log.
 */

const RETRYABLE_STATUS = new Set([408, 409, 425, 429]);

/** 5xx and 408/409/425/429 are worth another attempt with the same Idempotency-Key; other 4xx are not. */
export function isTransient(status: number): boolean {
  return status >= 500 || RETRYABLE_STATUS.has(status);
}

export interface BackoffPolicy {
  /** First backoff delay; each retry doubles it. */
  retryDelayMs: number;
  /** Longest backoff delay. */
  maxRetryDelayMs: number;
  /** Jitter source in [0, 1). */
  random: () => number;
}

/** Exponential backoff with "equal jitter": half the delay fixed, half random, so retries spread out. */
export function backoff(policy: BackoffPolicy, attempt: number): number {
  const full = Math.min(policy.maxRetryDelayMs, policy.retryDelayMs * 2 ** (attempt - 1));
  return Math.round(full / 2 + (policy.random() * full) / 2);
}

export function networkReason(err: unknown, timeoutMs: number): string {
  // Duck-typed rather than `instanceof Error`: fetch's errors may come from another realm (undici, jest's vm).
  const e = (typeof err === 'object' && err !== null ? err : {}) as {
    name?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${seconds(timeoutMs)}`;
  const base = e.message ?? String(err);
  // undici puts the useful part (ECONNREFUSED, ENOTFOUND, certificate errors) in `cause`.
  const cause = typeof e.cause === 'object' && e.cause !== null ? e.cause : undefined;
  if (cause?.code) return `${base} (${cause.code}${cause.message ? `: ${cause.message}` : ''})`;
  if (cause?.message) return `${base} (${cause.message})`;
  return base;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}
