import type { Knex } from 'knex';
import type { Dialect } from '../db.js';
import { attemptRow, type AttemptRecord, type DeliveryStatus } from './deliveries.js';

interface ClaimedBase {
  id: string;
  org: string;
  messageId: string;
  eventType: string;
  attempts: number;
  /** The outbox message as it is stored: `{type, timestamp, data, console_url}`. */
  payload: string;
}

/** A due webhook delivery claimed by one worker, with what it needs to send it. */
export interface ClaimedWebhookDelivery extends ClaimedBase {
  target: 'webhook';
  subscriptionId: string;
  url: string;
  secretSealed: string;
  /** The secret before a rotation: deliveries carry both signatures until it expires. */
  previousSecretSealed: string | null;
  previousSecretExpiresAt: string | null;
  failingSince: string | null;
}

/** A due GitHub delivery (a deploy decision's check run and comment): no subscription, no URL. */
export interface ClaimedGitHubDelivery extends ClaimedBase {
  target: 'github';
  subscriptionId: null;
}

export type ClaimedDelivery = ClaimedWebhookDelivery | ClaimedGitHubDelivery;

/** One attempt as the worker records it (the stored attempt without its row id), and its org. */
export interface AttemptResult extends Omit<AttemptRecord, 'id' | 'subscriptionId'> {
  org: string;
  /** Null for a GitHub delivery. */
  subscriptionId: string | null;
  /** The subscription keeps failing (`failing_since`), is fine again, or is disabled for a reason. */
  subscription: { kind: 'ok' } | { kind: 'failing' } | { kind: 'disable'; reason: string };
}

/**
 * Leases up to `limit` due deliveries to `workerId` until `lockedUntil`. A delivery whose lease ran
 * out (its worker crashed or was killed) is due again. On PostgreSQL, `FOR UPDATE SKIP LOCKED` lets
 * several instances claim at once without waiting for or double-claiming each other's rows; SQLite
 * has a single writer, so the transaction alone makes the claim atomic.
 */
export async function claimDueDeliveries(
  db: Knex,
  dialect: Dialect,
  workerId: string,
  now: string,
  lockedUntil: string,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const ids = await db.transaction(async (trx) => {
    const q = trx('webhook_deliveries')
      .select('id')
      .where('status', 'pending')
      .andWhere('next_attempt_at', '<=', now)
      .andWhere((w) => {
        w.whereNull('locked_until').orWhere('locked_until', '<', now);
      })
      .orderBy('next_attempt_at')
      .limit(limit);
    if (dialect === 'postgres') q.forUpdate().skipLocked();
    const found = ((await q) as Array<{ id: string }>).map((r) => r.id);
    if (found.length) {
      await trx('webhook_deliveries')
        .whereIn('id', found)
        .update({ locked_until: lockedUntil, locked_by: workerId });
    }
    return found;
  });
  return loadClaimed(db, ids);
}

/**
 * The claimed deliveries with the message's payload and, for a webhook, its subscription's URL and
 * secrets.
 */
export async function loadClaimed(db: Knex, ids: string[]): Promise<ClaimedDelivery[]> {
  if (ids.length === 0) return [];
  const rows = await db('webhook_deliveries as d')
    .leftJoin('webhook_subscriptions as s', 's.id', 'd.subscription_id')
    .join('outbox_messages as m', 'm.id', 'd.message_id')
    .whereIn('d.id', ids)
    .select<Array<Record<string, unknown>>>(
      'd.id',
      'd.target',
      'd.org',
      'd.subscription_id',
      'd.message_id',
      'd.event_type',
      'd.attempts',
      's.url',
      's.secret_sealed',
      's.previous_secret_sealed',
      's.previous_secret_expires_at',
      's.failing_since',
      'm.payload',
    );
  return rows.map((r): ClaimedDelivery => {
    const base = {
      id: String(r.id),
      org: String(r.org),
      messageId: String(r.message_id),
      eventType: String(r.event_type),
      attempts: Number(r.attempts),
      payload: String(r.payload),
    };
    if (r.target === 'github') return { ...base, target: 'github', subscriptionId: null };
    return {
      ...base,
      target: 'webhook',
      subscriptionId: String(r.subscription_id),
      url: String(r.url),
      secretSealed: String(r.secret_sealed),
      previousSecretSealed: (r.previous_secret_sealed as string | null) ?? null,
      previousSecretExpiresAt: (r.previous_secret_expires_at as string | null) ?? null,
      failingSince: (r.failing_since as string | null) ?? null,
    };
  });
}

/**
 * Records one attempt and moves the delivery on, releasing the lease. Returns false (and records
 * nothing) when the delivery is no longer this worker's: deleted with its subscription meanwhile.
 */
export async function recordAttempt(db: Knex, workerId: string, a: AttemptResult): Promise<boolean> {
  return db.transaction(async (trx) => {
    const status: DeliveryStatus = a.outcome === 'retrying' ? 'pending' : a.outcome;
    const updated = await trx('webhook_deliveries')
      .where({ id: a.deliveryId, locked_by: workerId, status: 'pending' })
      .update({
        status,
        attempts: a.attempt,
        next_attempt_at: a.nextAttemptAt,
        locked_until: null,
        locked_by: null,
        updated_at: a.attemptedAt,
      });
    if (updated === 0) return false;
    await trx('webhook_attempts').insert(attemptRow(a.org, a));
    if (a.subscriptionId === null) return true;
    const sub = trx('webhook_subscriptions').where({ id: a.subscriptionId });
    if (a.subscription.kind === 'ok') {
      await sub.whereNotNull('failing_since').update({ failing_since: null, updated_at: a.attemptedAt });
    } else if (a.subscription.kind === 'failing') {
      await sub
        .whereNull('failing_since')
        .update({ failing_since: a.attemptedAt, updated_at: a.attemptedAt });
    } else {
      await sub.update({
        status: 'disabled',
        disabled_reason: a.subscription.reason,
        updated_at: a.attemptedAt,
      });
      // A disabled subscription receives nothing more, including retries already scheduled.
      await trx('webhook_deliveries')
        .where({ subscription_id: a.subscriptionId, status: 'pending' })
        .update({ status: 'cancelled', next_attempt_at: null, updated_at: a.attemptedAt });
    }
    return true;
  });
}
