/** Bounded GitHub requests and secret-free descriptions of their failures, for the check-run publisher. */

export class GitHubTimeout extends Error {
  override name = 'GitHubTimeout';
}

/**
 * Runs one GitHub request with its own deadline. The abort signal cancels Octokit's fetch, but the
 * installation-token exchange inside auth does not see it, so the race is what bounds the step. The
 * deadline is per request, not per publication: Probot's throttling spaces writes a second apart, so a
 * run with many annotation batches legitimately takes longer than one deadline.
 */
export function withDeadline<T>(timeoutMs: number, step: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const signal = AbortSignal.timeout(timeoutMs);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new GitHubTimeout(`no answer from GitHub within ${timeoutMs} ms`));
    signal.addEventListener('abort', onAbort, { once: true });
    step(signal)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function httpStatusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown })?.status;
  return typeof status === 'number' ? status : undefined;
}

/** A short, secret-free reason: the HTTP status and GitHub's message, or the network error. */
export function describe(err: unknown): string {
  const status = httpStatusOf(err);
  const message = err instanceof Error ? err.message : String(err);
  const text = status
    ? `GitHub answered ${status}${message ? ` (${message})` : ''}`
    : message || 'unknown error';
  return text.length > 300 ? text.slice(0, 299) + '…' : text;
}

/**
 * A failure that may pass, so the publication is tried again: no answer (network, deadline), a server
 * error, or a rate limit (429, or GitHub's 403 for a secondary rate limit).
 */
export function worthRetrying(err: unknown): boolean {
  const status = httpStatusOf(err);
  if (status === undefined || status >= 500 || status === 429) return true;
  return status === 403 && /rate limit/i.test(err instanceof Error ? err.message : String(err));
}
