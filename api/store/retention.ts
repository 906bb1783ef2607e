import type { Knex } from 'knex';
import { lockScansForStatus } from './scans/holds.js';

/**
 * The queries of retention and deletion. Every statement here touches a bounded number of rows (a
 * `limit` or a list of ids), so none holds SQLite's write lock or a PostgreSQL row lock for long;
 * removing a scan is two steps: it is marked `deleted` (from then on no read, gate or report sees it),
 * then its pages and issues go in batches (store/scans/deletion.ts).
 */

export interface SiteRetentionRow {
  org: string;
  site_id: string;
  base_branch: string;
  retention_base_branch_days: number;
  retention_other_branch_days: number;
  retention_deploy_days: number;
}

/** Sites after (org, siteId), in that order: the sweep walks them a page per run. */
export async function sitesAfter(
  db: Knex,
  after: { org: string; siteId: string } | undefined,
  limit: number,
): Promise<SiteRetentionRow[]> {
  const q = db<SiteRetentionRow>('sites')
    .orderBy([
      { column: 'org', order: 'asc' },
      { column: 'site_id', order: 'asc' },
    ])
    .limit(limit)
    .select(
      'org',
      'site_id',
      'base_branch',
      'retention_base_branch_days',
      'retention_other_branch_days',
      'retention_deploy_days',
    );
  if (after) {
    q.where((w) => {
      w.where('org', '>', after.org).orWhere((x) => {
        x.where('org', after.org).andWhere('site_id', '>', after.siteId);
      });
    });
  }
  return q;
}

/** Deletes up to `limit` deploy events of the site created before `cutoff`; returns how many. */
export async function deleteExpiredDeploys(
  db: Knex,
  site: { org: string; siteId: string },
  cutoff: string,
  limit: number,
): Promise<number> {
  const ids = db('deploys')
    .where({ org: site.org, site_id: site.siteId })
    .andWhere('created_at', '<', cutoff)
    .limit(limit)
    .select('id');
  return db('deploys').whereIn('id', ids).delete();
}

/** No deploy event uses the scan as head or baseline, and no VPAT report as evidence. */
function unused(db: Knex | Knex.Transaction) {
  return (q: Knex.QueryBuilder) => {
    q.whereNotExists(db('deploys').whereRaw('deploys.scan_id = scans.id').select(db.raw('1')))
      .whereNotExists(db('deploys').whereRaw('deploys.baseline_scan_id = scans.id').select(db.raw('1')))
      .whereNotExists(db('vpat_reports').whereRaw('vpat_reports.scan_id = scans.id').select(db.raw('1')));
  };
}

export interface ScanCutoffs {
  org: string;
  siteId: string;
  baseBranch: string;
  /** Scans of the base branch created before this go. */
  base: string;
  /** Scans of any other branch (or none) created before this go. */
  other: string;
}

/**
 * Marks up to `limit` of the site's complete scans past their retention as `deleted`, in a statement
 * that checks again that nothing uses them, after waiting for any deploy event or report being written
 * with them (so one written since the candidates were read keeps its scans). The newest full scan of
 * the base branch is never marked: it is the next deploy's baseline (a partial scan never is one).
 * Returns the ids marked.
 */
export async function markExpiredScans(db: Knex, c: ScanCutoffs, limit: number): Promise<string[]> {
  const newestBase = db('scans')
    .where({ org: c.org, site_id: c.siteId, branch: c.baseBranch, status: 'complete', scope: 'full' })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(1)
    .select('id');
  const candidates = await db('scans')
    .where({ org: c.org, site_id: c.siteId, status: 'complete' })
    .andWhere('created_at', '<', c.other > c.base ? c.other : c.base)
    .andWhere((w) => {
      w.where((x) => {
        x.where('branch', c.baseBranch).andWhere('created_at', '<', c.base);
      }).orWhere((x) => {
        x.where((y) => {
          y.whereNot('branch', c.baseBranch).orWhereNull('branch');
        }).andWhere('created_at', '<', c.other);
      });
    })
    .whereNotIn('id', newestBase)
    .modify(unused(db))
    .orderBy('created_at')
    .limit(limit)
    .select<Array<{ id: string }>>('id');
  const ids = candidates.map((r) => r.id);
  if (ids.length === 0) return [];
  return db.transaction(async (trx) => {
    // A deploy event or report being written with one of them holds it (store/scans/holds.ts): wait for
    // it, then check again in a new statement, which sees what it wrote.
    await lockScansForStatus(trx, ids);
    await trx('scans').whereIn('id', ids).andWhere({ status: 'complete' }).modify(unused(trx)).update({
      status: 'deleted',
    });
    const marked = await trx('scans')
      .whereIn('id', ids)
      .andWhere({ status: 'deleted' })
      .select<Array<{ id: string }>>('id');
    return marked.map((r) => r.id);
  });
}

/** Scans marked `deleted` whose rows are still there (a deletion cut short, or the sweep's own). */
export async function deletedScans(db: Knex, limit: number): Promise<string[]> {
  const rows = await db('scans').where({ status: 'deleted' }).orderBy('id').limit(limit).select('id');
  return rows.map((r: { id: string }) => r.id);
}

/** What still uses a scan: up to `limit` deploy events (head or baseline) and VPAT reports. */
export async function scanUsers(
  db: Knex | Knex.Transaction,
  scanId: string,
  limit = 3,
): Promise<{
  deploys: Array<{ id: string; role: 'head' | 'baseline'; createdAt: string }>;
  reports: string[];
}> {
  const heads = await db('deploys').where({ scan_id: scanId }).limit(limit).select('id', 'created_at');
  const bases = await db('deploys')
    .where({ baseline_scan_id: scanId })
    .limit(limit)
    .select('id', 'created_at');
  const reports = await db('vpat_reports').where({ scan_id: scanId }).limit(limit).select('id');
  type D = { id: string; created_at: string };
  return {
    deploys: [
      ...heads.map((d: D) => ({ id: d.id, role: 'head' as const, createdAt: d.created_at })),
      ...bases.map((d: D) => ({ id: d.id, role: 'baseline' as const, createdAt: d.created_at })),
    ],
    reports: reports.map((r: { id: string }) => r.id),
  };
}
