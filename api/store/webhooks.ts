import type { Knex } from 'knex';
import { isNulFree } from '../domain/text-truncation.js';

export type SubscriptionStatus = 'active' | 'disabled';

export interface SubscriptionRecord {
  id: string;
  org: string;
  url: string;
  events: string[];
  description: string | null;
  secretSealed: string;
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
    status: r.status,
    disabledReason: r.disabled_reason,
    failingSince: r.failing_since,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Webhook subscriptions; every read and write is scoped to an org. */
export class WebhookRepository {
  constructor(private readonly db: Knex) {}

  async insert(s: SubscriptionRecord): Promise<void> {
    await this.db<Row>('webhook_subscriptions').insert({
      id: s.id,
      org: s.org,
      url: s.url,
      events: JSON.stringify(s.events),
      description: s.description,
      secret_sealed: s.secretSealed,
      status: s.status,
      disabled_reason: s.disabledReason,
      failing_since: s.failingSince,
      created_at: s.createdAt,
      updated_at: s.updatedAt,
    });
  }

  async find(org: string, id: string): Promise<SubscriptionRecord | undefined> {
    // No id holds NUL, and PostgreSQL would refuse the query (a 500) instead of finding nothing.
    if (!isNulFree(id)) return undefined;
    const row = await this.db<Row>('webhook_subscriptions').where({ org, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async count(org: string): Promise<number> {
    const row = await this.db('webhook_subscriptions').where({ org }).count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }

  /** Keyset page ordered by (created_at, id) descending. */
  async list(
    org: string,
    limit: number,
    after?: { createdAt: string; id: string },
  ): Promise<SubscriptionRecord[]> {
    const q = this.db<Row>('webhook_subscriptions')
      .where({ org })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit);
    if (after) {
      q.andWhere((w) =>
        w
          .where('created_at', '<', after.createdAt)
          .orWhere((o) => o.where('created_at', '=', after.createdAt).andWhere('id', '<', after.id)),
      );
    }
    return (await q).map(fromRow);
  }

  /** Deletes the subscription with its deliveries and attempts (nothing pending is sent afterwards). */
  async delete(org: string, id: string): Promise<boolean> {
    if (!isNulFree(id)) return false;
    return this.db.transaction(async (trx) => {
      const sub = await trx<Row>('webhook_subscriptions').where({ org, id }).first('id');
      if (!sub) return false;
      await trx('webhook_attempts').where({ subscription_id: id }).delete();
      await trx('webhook_deliveries').where({ subscription_id: id }).delete();
      await trx('webhook_subscriptions').where({ org, id }).delete();
      return true;
    });
  }
}
