import type { Knex } from 'knex';

/** Whether the subscription's last `n` attempts all timed out (no answer at all, not an HTTP error). */
export async function lastAttemptsTimedOut(db: Knex, subscriptionId: string, n: number): Promise<boolean> {
  const rows = await db('webhook_attempts')
    .where({ subscription_id: subscriptionId })
    .orderBy([
      { column: 'attempted_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(n)
    .select<Array<{ error: string | null; response_status: number | null }>>('error', 'response_status');
  return (
    rows.length === n &&
    rows.every((r) => r.response_status === null && /^no answer within/.test(r.error ?? ''))
  );
}

/**
 * Pauses an active subscription (status `disabled` with the reason) and cancels its pending deliveries.
 * Returns false when it was not active any more (another worker paused it, or a person did): the caller
 * then records no event.
 */
export async function pauseSubscription(
  trx: Knex.Transaction,
  subscriptionId: string,
  reason: string,
  now: string,
): Promise<{ org: string; url: string } | undefined> {
  const paused = await trx('webhook_subscriptions')
    .where({ id: subscriptionId, status: 'active' })
    .update({ status: 'disabled', disabled_reason: reason, updated_at: now });
  if (paused === 0) return undefined;
  await trx('webhook_deliveries')
    .where({ subscription_id: subscriptionId, status: 'pending' })
    .update({ status: 'cancelled', next_attempt_at: null, updated_at: now });
  return trx('webhook_subscriptions')
    .where({ id: subscriptionId })
    .first<{ org: string; url: string }>('org', 'url');
}
