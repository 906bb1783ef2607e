import type { Knex } from 'knex';
import type { Dialect } from '../db.js';
import { newestFirst } from '../keyset.js';

export type SubscriptionStatus = 'active' | 'disabled';

export interface SubscriptionRecord {
  id: string;
  org: string;
  url: string;
  events: string[];
  description: string | null;
  secretSealed: string;
  /** The secret before the last rotation, still signing deliveries until `previousSecretExpiresAt`. */
  previousSecretSealed: string | null;
  previousSecretExpiresAt: string | null;
  status: SubscriptionStatus;
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  org: string;
  url: string;
  events: string;
  description: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: string | null;
  status: SubscriptionStatus;
  disabled_reason: string | null;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

function fromRow(r: Row): SubscriptionRecord {
  return {
    id: r.id,
    org: r.org,
    url: r.url,
    events: JSON.parse(r.events) as string[],
    description: r.description,
    secretSealed: r.secret_sealed,
    previousSecretSealed: r.previous_secret_sealed ?? null,
    previousSecretExpiresAt: r.previous_secret_expires_at ?? null,
    status: r.status,
    disabledReason: r.disabled_reason,
    failingSince: r.failing_since,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toRow(s: SubscriptionRecord): Row {
  return {
    id: s.id,
    org: s.org,
    url: s.url,
    events: JSON.stringify(s.events),
    description: s.description,
    secret_sealed: s.secretSealed,
    previous_secret_sealed: s.previousSecretSealed,
    previous_secret_expires_at: s.previousSecretExpiresAt,
    status: s.status,
    disabled_reason: s.disabledReason,
    failing_since: s.failingSince,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

/**
 * Serialises an org's subscription writes for the rest of the transaction, so "count, then insert"
 * cannot be interleaved by a concurrent request. SQLite runs one transaction at a time already.
 */
export async function lockOrgSubscriptions(
  trx: Knex.Transaction,
  dialect: Dialect,
  org: string,
): Promise<void> {
  if (dialect === 'postgres') {
    await trx.raw("select pg_advisory_xact_lock(hashtext('a11y-gate webhook subscriptions ' || ?))", [org]);
  }
}

export async function insertSubscription(db: Knex | Knex.Transaction, s: SubscriptionRecord): Promise<void> {
  await db<Row>('webhook_subscriptions').insert(toRow(s));
}

/** Writes every field of the record back (the org and id select it). */
export async function saveSubscription(db: Knex | Knex.Transaction, s: SubscriptionRecord): Promise<void> {
  const { id: _id, org: _org, created_at: _created, ...fields } = toRow(s);
  await db<Row>('webhook_subscriptions').where({ org: s.org, id: s.id }).update(fields);
}

export async function findSubscription(
  db: Knex | Knex.Transaction,
  org: string,
  id: string,
): Promise<SubscriptionRecord | undefined> {
  const row = await db<Row>('webhook_subscriptions').where({ org, id }).first();
  return row ? fromRow(row) : undefined;
}

export async function countSubscriptions(db: Knex | Knex.Transaction, org: string): Promise<number> {
  const row = await db('webhook_subscriptions').where({ org }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** Keyset page ordered by (created_at, id) descending. */
export async function listSubscriptions(
  db: Knex,
  org: string,
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<SubscriptionRecord[]> {
  const q = db<Row>('webhook_subscriptions').where({ org });
  newestFirst(q, 'created_at', limit, after && { at: after.createdAt, id: after.id });
  return (await q).map(fromRow);
}

/** Deletes the subscription with its deliveries and attempts (nothing pending is sent afterwards). */
export async function deleteSubscription(trx: Knex.Transaction, org: string, id: string): Promise<boolean> {
  const sub = await trx<Row>('webhook_subscriptions').where({ org, id }).first('id');
  if (!sub) return false;
  await trx('webhook_attempts').where({ subscription_id: id }).delete();
  await trx('webhook_deliveries').where({ subscription_id: id }).delete();
  await trx('webhook_subscriptions').where({ org, id }).delete();
  return true;
}
