import { isNulFree } from '../../../domain/text-truncation.js';
import type { AttemptRecord } from '../../../store/webhooks/deliveries.js';
import type { SubscriptionRecord } from '../../../store/webhooks/subscriptions.js';
import { decodeCursor } from '../../pagination.js';
import { problems } from '../../problem.js';

/** How the webhook endpoints show a subscription (never its secret). */
export function presentSubscription(s: SubscriptionRecord) {
  const overlapping = s.previousSecretExpiresAt && s.previousSecretExpiresAt > new Date().toISOString();
  return {
    id: s.id,
    url: s.url,
    events: s.events,
    description: s.description,
    status: s.status,
    disabled_reason: s.disabledReason,
    active: s.status === 'active',
    previous_secret_expires_at: overlapping ? s.previousSecretExpiresAt : null,
    created_at: s.createdAt,
  };
}

export function presentAttempt(a: AttemptRecord) {
  return {
    delivery_id: a.deliveryId,
    message_id: a.messageId,
    event: a.eventType,
    attempt: a.attempt,
    outcome: a.outcome,
    response_status: a.responseStatus,
    response_excerpt: a.responseExcerpt,
    error: a.error,
    duration_ms: a.durationMs,
    attempted_at: a.attemptedAt,
    next_attempt_at: a.nextAttemptAt,
  };
}

/**
 * A cursor's values go into SQL: a forged one whose id is not an integer, or whose text holds NUL, would
 * make PostgreSQL fail the query (a 500); it is refused like any cursor this API did not issue.
 */
export function keysetCursor(cursor: string | undefined, kinds: Array<'text' | 'integer'>) {
  const values = decodeCursor(cursor, kinds.length);
  if (!values) return undefined;
  const fits = values.every((v, i) =>
    kinds[i] === 'integer'
      ? Number.isSafeInteger(v) && (v as number) >= 0
      : typeof v === 'string' && isNulFree(v) && v.length <= 100,
  );
  if (!fits)
    throw problems.validation([{ pointer: '#/query/cursor', detail: 'is not a cursor this API issued' }]);
  return values;
}
