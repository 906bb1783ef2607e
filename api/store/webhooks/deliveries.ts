import type { Knex } from 'knex';
import { newId } from '../../domain/ids.js';
import { insertInChunks } from '../db.js';
import { newestFirst } from '../keyset.js';

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

/** An attempt's fields and their columns: the one map both the write and the read go through. */
const ATTEMPT_COLUMNS = {
  deliveryId: 'delivery_id',
  subscriptionId: 'subscription_id',
  messageId: 'message_id',
  eventType: 'event_type',
  attempt: 'attempt',
  outcome: 'outcome',
  responseStatus: 'response_status',
  responseExcerpt: 'response_excerpt',
  error: 'error',
  durationMs: 'duration_ms',
  attemptedAt: 'attempted_at',
  nextAttemptAt: 'next_attempt_at',
} as const satisfies Record<Exclude<keyof AttemptRecord, 'id'>, string>;

type AttemptRow = { id: number | string } & {
  [K in keyof typeof ATTEMPT_COLUMNS as (typeof ATTEMPT_COLUMNS)[K]]: AttemptRecord[K] | string;
};

/** PostgreSQL answers bigint columns as strings: these fields are read back as numbers. */
const NUMERIC: ReadonlySet<string> = new Set(['attempt', 'responseStatus', 'durationMs']);

/** The row of one attempt, for `org`. */
export function attemptRow(
  org: string,
  a: Omit<AttemptRecord, 'id' | 'subscriptionId'> & { subscriptionId: string | null },
): Record<string, unknown> {
  const row: Record<string, unknown> = { org };
  for (const [field, column] of Object.entries(ATTEMPT_COLUMNS)) row[column] = a[field as keyof typeof a];
  return row;
}

function attemptFromRow(r: AttemptRow): AttemptRecord {
  const fields: Record<string, unknown> = { id: Number(r.id) };
  for (const [field, column] of Object.entries(ATTEMPT_COLUMNS)) {
    const v = r[column];
    fields[field] = v !== null && NUMERIC.has(field) ? Number(v) : v;
  }
  return fields as unknown as AttemptRecord;
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
    .map((s) => pendingDelivery(message, { subscription_id: s.id }));
  await insertInChunks(trx, 'webhook_deliveries', rows);
  return rows.length;
}

/**
 * The GitHub delivery of a message (its check run and pull request comment), inside the transaction that
 * records the message: the worker claims, retries and records it like a webhook delivery, but it belongs
 * to no subscription.
 */
export async function queueGitHubDelivery(
  trx: Knex | Knex.Transaction,
  message: { id: string; org: string; type: string; createdAt: string },
): Promise<void> {
  await trx('webhook_deliveries').insert(
    pendingDelivery(message, { subscription_id: null, target: 'github' }),
  );
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
  const q = db('webhook_attempts').where({ org, subscription_id: subscriptionId });
  newestFirst(q, 'attempted_at', limit, after && { at: after.attemptedAt, id: after.id });
  const rows = await q.select<AttemptRow[]>('id', ...Object.values(ATTEMPT_COLUMNS));
  return rows.map(attemptFromRow);
}

/** A delivery row of a message, due now: to one subscription, or (target `github`) to the App. */
function pendingDelivery(
  message: { id: string; org: string; type: string; createdAt: string },
  to: { subscription_id: string | null; target?: 'github' },
) {
  return {
    id: newId('dlv'),
    org: message.org,
    ...to,
    message_id: message.id,
    event_type: message.type,
    status: 'pending',
    attempts: 0,
    next_attempt_at: message.createdAt,
    locked_until: null,
    locked_by: null,
    created_at: message.createdAt,
    updated_at: message.createdAt,
  };
}
