import type { AttemptRecord } from '../../store/webhooks/deliveries.js';
import type { SubscriptionRecord } from '../../store/webhooks/subscriptions.js';

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
