import type { Knex } from 'knex';
import { checkCount, type LimitName } from '../../domain/access/limits.js';
import { dialectOf } from '../db.js';

/**
 * Counting what an org holds before adding one more. The count and the insert run in one transaction
 * under a per-org lock (PostgreSQL advisory lock; SQLite has one writer), so two requests at once
 * cannot both take the last place.
 */

export type OrgCounted = 'keys' | 'waivers' | 'sites' | 'open scans' | 'webhooks';

export async function lockOrgCount(trx: Knex.Transaction, what: OrgCounted, org: string): Promise<void> {
  if (dialectOf(trx) === 'postgres') {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`a11y-gate ${what} ${org}`]);
  }
}

async function countRows(q: Knex.QueryBuilder): Promise<number> {
  const row = await q.count<{ n: number | string }[]>({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** What each counted thing is in SQL: its table and which of its rows count against the limit. */
function counted(trx: Knex.Transaction, what: OrgCounted, org: string, now: string): Knex.QueryBuilder {
  switch (what) {
    case 'keys':
      // Keys that still authenticate: a rotated key holds its place until its grace period ends.
      return trx('api_keys')
        .where({ org })
        .whereNull('revoked_at')
        .andWhere((q) => {
          q.whereNull('expires_at').orWhere('expires_at', '>', now);
        });
    case 'waivers':
      return trx('waivers').where({ org }).whereNull('revoked_at');
    case 'sites':
      return trx('sites').where({ org });
    case 'open scans':
      return trx('scans').where({ org, status: 'open' }).andWhere('expires_at', '>=', now);
    case 'webhooks':
      return trx('webhook_subscriptions').where({ org });
  }
}

/**
 * Locks the org's count of `what` and throws a LimitError (422) when `adding` more would pass `max`.
 * Call it inside the transaction that inserts.
 */
export async function reserveOrgPlace(
  trx: Knex.Transaction,
  what: OrgCounted,
  org: string,
  limit: { name: LimitName; value: number },
  adding = 1,
): Promise<void> {
  await lockOrgCount(trx, what, org);
  const current = await countRows(counted(trx, what, org, new Date().toISOString()));
  checkCount(limit.name, limit.value, current, `this org holds ${current} ${what}`, adding);
}
