import type { Knex } from 'knex';
import { newId } from '../../domain/ids.js';
import { insertInChunks } from '../db.js';
import { olderThan } from '../keyset.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';
export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed';

export interface AttemptRecord {
  id: number;
  deliveryId: string;
  subscriptionId: string;
  messageId: string;
  eventType: string;
  attempt: number;
  outcome: AttemptOutcome;
  responseStatus: number | null;
  responseExcerpt: string | null;
  error: string | null;
  durationMs: number;
  attemptedAt: string;
  nextAttemptAt: string | null;
}

/**
 * Creates one pending delivery per active subscription of the org that wants this event type, inside
 * the transaction that records the event. Returns how many were created.
 */
export async function fanOutMessage(
  trx: Knex | Knex.Transaction,
  message: { id: string; org: string; type: string; createdAt: string },
  only?: string,
): Promise<number> {
  const q = trx('webhook_subscriptions').where({ org: message.org, status: 'active' }).select('id', 'events');
  if (only) q.andWhere({ id: only });
  const subs = (await q) as Array<{ id: string; events: string }>;
  const rows = subs
    .filter((s) => {
      if (only) return true;
      const events = JSON.parse(s.events) as string[];
      return events.includes('*') || events.includes(message.type);
    })
    .map((s) => ({
      id: newId('dlv'),
      org: message.org,
      subscription_id: s.id,
      message_id: message.id,
      event_type: message.type,
      status: 'pending',
      attempts: 0,
      next_attempt_at: message.createdAt,
      locked_until: null,
      locked_by: null,
      created_at: message.createdAt,
      updated_at: message.createdAt,
    }));
  await insertInChunks(trx, 'webhook_deliveries', rows);
  return rows.length;
}

/** A delivery of one subscription (org-scoped), for redelivery. */
type DeliveryRef = { id: string; status: DeliveryStatus; message_id: string };

export async function findDelivery(
  db: Knex | Knex.Transaction,
  org: string,
  subscriptionId: string,
  deliveryId: string,
): Promise<{ id: string; status: DeliveryStatus; messageId: string } | undefined> {
  const row = await db('webhook_deliveries')
    .where({ org, subscription_id: subscriptionId, id: deliveryId })
    .first<DeliveryRef | undefined>('id', 'status', 'message_id');
  return row ? { id: row.id, status: row.status, messageId: row.message_id } : undefined;
}

/**
 * Makes a finished delivery due again at once. Its attempt count goes on, so a redelivery is one more
 * attempt (the retry schedule is spent) and the attempts list shows it after the earlier ones.
 */
export async function scheduleRedelivery(
  trx: Knex.Transaction,
  deliveryId: string,
  at: string,
): Promise<boolean> {
  const n = await trx('webhook_deliveries')
    .where({ id: deliveryId })
    .whereNot({ status: 'pending' })
    .update({ status: 'pending', next_attempt_at: at, locked_until: null, locked_by: null, updated_at: at });
  return n > 0;
}

/** A paused subscription receives nothing more, including retries already scheduled. */
export async function cancelPendingDeliveries(
  trx: Knex.Transaction,
  subscriptionId: string,
  at: string,
): Promise<void> {
  await trx('webhook_deliveries')
    .where({ subscription_id: subscriptionId, status: 'pending' })
    .update({ status: 'cancelled', next_attempt_at: null, updated_at: at });
}

/** Attempts to one subscription, newest first; keyset on (attempted_at, id). */
export async function listAttempts(
  db: Knex,
  org: string,
  subscriptionId: string,
  limit: number,
  after?: { attemptedAt: string; id: number },
): Promise<AttemptRecord[]> {
  const q = db('webhook_attempts')
    .where({ org, subscription_id: subscriptionId })
    .orderBy([
      { column: 'attempted_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit);
  if (after) {
    olderThan(q, 'attempted_at', after.attemptedAt, after.id);
  }
  const rows = (await q) as Array<Record<string, unknown>>;
  return rows.map((r) => ({
    id: Number(r.id),
    deliveryId: String(r.delivery_id),
    subscriptionId: String(r.subscription_id),
    messageId: String(r.message_id),
    eventType: String(r.event_type),
    attempt: Number(r.attempt),
    outcome: r.outcome as AttemptOutcome,
    responseStatus: r.response_status === null ? null : Number(r.response_status),
    responseExcerpt: (r.response_excerpt as string | null) ?? null,
    error: (r.error as string | null) ?? null,
    durationMs: Number(r.duration_ms),
    attemptedAt: String(r.attempted_at),
    nextAttemptAt: (r.next_attempt_at as string | null) ?? null,
  }));
}
