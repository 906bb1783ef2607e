import type { Knex } from 'knex';
import type { SiteRef } from './spans.js';

/** The scans whose history is still to be kept, oldest in the history first. */

export interface QueuedHistory extends SiteRef {
  scanId: string;
  at: string;
}

export async function queueHistory(trx: Knex.Transaction, q: QueuedHistory): Promise<void> {
  await trx('history_queue').insert({ scan_id: q.scanId, org: q.org, site_id: q.siteId, at: q.at });
}

/** Up to `limit` queued scans: of one site, of one org, or of every org. */
export async function queuedHistory(
  db: Knex,
  scope: { org?: string; siteId?: string },
  limit: number,
): Promise<QueuedHistory[]> {
  const q = db('history_queue');
  if (scope.org !== undefined) q.where({ org: scope.org });
  if (scope.siteId !== undefined) q.where({ site_id: scope.siteId });
  const rows = await q
    .orderBy([
      { column: 'at', order: 'asc' },
      { column: 'scan_id', order: 'asc' },
    ])
    .limit(limit)
    .select<Array<{ scan_id: string; org: string; site_id: string; at: string }>>(
      'scan_id',
      'org',
      'site_id',
      'at',
    );
  return rows.map((r) => ({ scanId: r.scan_id, org: r.org, siteId: r.site_id, at: r.at }));
}

/** Takes a queued scan off the queue; false when another writer took it first. */
export async function takeQueuedHistory(trx: Knex.Transaction, scanId: string): Promise<boolean> {
  return (await trx('history_queue').where({ scan_id: scanId }).delete()) === 1;
}
