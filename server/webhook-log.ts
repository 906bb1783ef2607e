import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';

/**
 * Anyone can POST to the GitHub webhook URL. Probot logs every delivery whose signature does not match
 * as an error with its stack, so a stray sender (or a secret rotated on one side only) floods the log.
 * Here such a refusal is a warning without a stack, logged once per source address per minute, with
 * how many were refused since the last line.
 */

const QUIET_MS = 60_000;

/** The address of the webhook request being handled, for the log lines it causes. */
const currentSource = new AsyncLocalStorage<string>();

export function withWebhookSource<T>(source: string | undefined, run: () => T): T {
  return currentSource.run(source ?? 'unknown', run);
}

function isBadSignature(value: unknown): boolean {
  const errors = (value as { errors?: unknown } | null)?.errors;
  const first: unknown =
    errors && typeof errors === 'object' ? Array.from(errors as Iterable<unknown>)[0] : value;
  const e = first as { status?: unknown; message?: unknown } | null;
  return e?.status === 400 && typeof e.message === 'string' && /signature/i.test(e.message);
}

/** Probot's logger, with bad signatures logged as above; every other line passes unchanged. */
export function quietBadSignatures(logger: Logger, now: () => number = Date.now): Logger {
  const seen = new Map<string, { loggedAt: number; refused: number }>();
  const note = (target: Logger) => {
    const source = currentSource.getStore() ?? 'unknown';
    const t = now();
    const entry = seen.get(source);
    if (entry && t - entry.loggedAt < QUIET_MS) {
      entry.refused++;
      return;
    }
    for (const [key, value] of seen) if (t - value.loggedAt >= QUIET_MS) seen.delete(key);
    seen.set(source, { loggedAt: t, refused: 0 });
    target.warn(
      { source, refused_since_last: entry?.refused ?? 0 },
      'GitHub webhook refused: its signature does not match WEBHOOK_SECRET',
    );
  };
  const wrap = (target: Logger): Logger =>
    new Proxy(target, {
      get(t, prop) {
        if (prop === 'child') {
          return (bindings: Record<string, unknown>) => wrap(t.child(bindings));
        }
        if (prop === 'error') {
          return (first: unknown, ...rest: unknown[]) => {
            if (isBadSignature(first)) note(t);
            else t.error(first as object, ...(rest as [string?]));
          };
        }
        const value: unknown = Reflect.get(t, prop, t);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
      },
    });
  return wrap(logger);
}
