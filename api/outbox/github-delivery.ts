import { nowIso } from '../domain/ids.js';
import type { AttemptResult, ClaimedGitHubDelivery } from '../store/webhooks/delivery-queue.js';
import { nextRetryDelay } from './retry-schedule.js';

/** What one attempt to publish a deploy decision on GitHub came to. */
export interface GitHubAttempt {
  /** Done: posted, or nothing to post (not installed, no repository). */
  done: boolean;
  /** Not done, and worth another attempt (GitHub did not answer, answered 5xx or a rate limit). */
  retry: boolean;
  /** The HTTP status GitHub answered the failing request with, if any. */
  status: number | null;
  error: string | null;
}

/**
 * Publishes the deploy decision a GitHub delivery carries (the check run, then the pull request comment)
 * and records the check run's state. The GitHub App provides it through the service (services/github).
 */
export type GitHubDeliveryHandler = (d: ClaimedGitHubDelivery) => Promise<GitHubAttempt>;

/**
 * One attempt of a GitHub delivery, as the worker records it: success, a retry on the schedule, or given
 * up. A handler that throws counts as a failure worth a retry.
 */
export async function attemptGitHub(
  d: ClaimedGitHubDelivery,
  handler: GitHubDeliveryHandler,
  o: { retryDelaysMs: number[]; random: () => number },
): Promise<AttemptResult> {
  const attempt = d.attempts + 1;
  const attemptedAt = new Date();
  const outcome = await handler(d).catch((err: unknown): GitHubAttempt => ({
    done: false,
    retry: true,
    status: null,
    error: err instanceof Error ? err.message : String(err),
  }));
  const delay =
    outcome.done || !outcome.retry
      ? undefined
      : nextRetryDelay(attempt, o.retryDelaysMs, undefined, o.random);
  return {
    deliveryId: d.id,
    subscriptionId: null,
    org: d.org,
    messageId: d.messageId,
    eventType: d.eventType,
    attempt,
    outcome: outcome.done ? 'succeeded' : delay === undefined ? 'failed' : 'retrying',
    responseStatus: outcome.status,
    responseExcerpt: null,
    error: outcome.error,
    durationMs: Date.now() - attemptedAt.getTime(),
    attemptedAt: nowIso(attemptedAt),
    nextAttemptAt: delay === undefined ? null : nowIso(new Date(Date.now() + delay)),
    subscription: { kind: 'ok' },
  };
}
