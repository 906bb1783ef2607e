import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { nowIso } from '../domain/ids.js';
import { lastAttemptsTimedOut, pauseSubscription } from '../store/webhooks/pause.js';
import { recordEvent } from './record.js';

/**
 * A receiver that keeps timing out is first slowed (each delivery backs off on the retry schedule, and a
 * subscription has at most a few attempts in flight), then paused: after `afterTimeouts` attempts in a
 * row without an answer, the subscription stops (its pending deliveries are cancelled) and the org's
 * other subscriptions get `webhook.paused`. A person resumes it (`PATCH … active: true`).
 */
export async function pauseIfTimingOut(
  db: Knex,
  logger: Logger,
  subscriptionId: string,
  afterTimeouts: number,
): Promise<boolean> {
  if (!(await lastAttemptsTimedOut(db, subscriptionId, afterTimeouts))) return false;
  const now = nowIso();
  const reason = `paused: the last ${afterTimeouts} deliveries got no answer in time`;
  const paused = await db.transaction(async (trx) => {
    const sub = await pauseSubscription(trx, subscriptionId, reason, now);
    if (!sub) return false;
    await recordEvent(trx, sub.org, {
      type: 'webhook.paused',
      data: { webhook_id: subscriptionId, url: sub.url, reason, paused_at: now },
    });
    return true;
  });
  if (paused) logger.warn({ subscription_id: subscriptionId, reason }, 'webhook subscription paused');
  return paused;
}
