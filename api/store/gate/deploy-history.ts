import type { Knex } from 'knex';
import { newestFirst } from '../keyset.js';

/** One deploy event as a line of a site's gate history (the full record is read by id). */
export interface DeploySummaryRecord {
  id: string;
  siteId: string;
  sha: string;
  ref: string | null;
  passed: boolean;
  reasonCodes: string[];
  scanId: string | null;
  baselineSha: string | null;
  counts: { new: number; existing: number; fixed: number; waived: number };
  newIssuesTotal: number;
  createdAt: string;
}

interface Row {
  id: string;
  site_id: string;
  sha: string;
  ref: string | null;
  passed: boolean | number;
  reasons: string;
  scan_id: string | null;
  baseline_sha: string | null;
  counts: string;
  new_issues_total: number;
  created_at: string;
}

const COLUMNS = [
  'id',
  'site_id',
  'sha',
  'ref',
  'passed',
  'reasons',
  'scan_id',
  'baseline_sha',
  'counts',
  'new_issues_total',
  'created_at',
];

function fromRow(r: Row): DeploySummaryRecord {
  const counts = JSON.parse(r.counts) as DeploySummaryRecord['counts'];
  return {
    id: r.id,
    siteId: r.site_id,
    sha: r.sha,
    ref: r.ref,
    // SQLite answers 0/1.
    passed: Boolean(r.passed),
    reasonCodes: (JSON.parse(r.reasons) as Array<{ code: string }>).map((x) => x.code),
    scanId: r.scan_id,
    baselineSha: r.baseline_sha,
    counts: { new: counts.new, existing: counts.existing, fixed: counts.fixed, waived: counts.waived },
    newIssuesTotal: r.new_issues_total,
    createdAt: r.created_at,
  };
}

/** Keyset page of an org's deploy events (optionally one site's), newest first by (created_at, id). */
export async function listDeploySummaries(
  db: Knex,
  org: string,
  filter: { siteId?: string },
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<DeploySummaryRecord[]> {
  const q = db('deploys')
    .where({ org })
    .select(...COLUMNS);
  if (filter.siteId !== undefined) q.andWhere('site_id', filter.siteId);
  newestFirst(q, 'created_at', limit, after && { at: after.createdAt, id: after.id });
  return ((await q) as Row[]).map(fromRow);
}

/** The latest deploy event of each of these sites (one query for a whole page of sites). */
export async function latestDeployPerSite(
  db: Knex,
  org: string,
  siteIds: string[],
): Promise<Map<string, DeploySummaryRecord>> {
  if (siteIds.length === 0) return new Map();
  const ranked = db('deploys')
    .where({ org })
    .whereIn('site_id', siteIds)
    .select(
      ...COLUMNS,
      db.raw('row_number() over (partition by site_id order by created_at desc, id desc) as rn'),
    );
  const rows = await db
    .from(ranked.as('d'))
    .where('rn', 1)
    .select<Row[]>(...COLUMNS);
  return new Map(rows.map((r) => [r.site_id, fromRow(r)]));
}
