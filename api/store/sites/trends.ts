import type { Knex } from 'knex';
import type { ScanSummary } from '../../domain/scans/summary.js';

/** One scan of a site's base branch as a point of its trend. */
export interface TrendPointRecord {
  siteId: string;
  scanId: string;
  sha: string | null;
  createdAt: string;
  summary: ScanSummary;
}

interface Row {
  site_id: string;
  id: string;
  sha: string | null;
  created_at: string;
  summary: string;
}

/**
 * The latest `perSite` scans on each site's own base branch, oldest first within a site: the trends of
 * a whole page of sites in one query (ranked per site, so a site with many scans reads only its index).
 */
export async function recentBaseBranchScans(
  db: Knex,
  org: string,
  siteIds: string[],
  perSite: number,
): Promise<Map<string, TrendPointRecord[]>> {
  const out = new Map<string, TrendPointRecord[]>(siteIds.map((id) => [id, []]));
  if (siteIds.length === 0) return out;
  const ranked = db('scans as s')
    .join('sites as t', (j) =>
      j.on('t.org', 's.org').andOn('t.site_id', 's.site_id').andOn('t.base_branch', 's.branch'),
    )
    .where('s.org', org)
    .whereIn('s.site_id', siteIds)
    .select(
      's.site_id',
      's.id',
      's.sha',
      's.created_at',
      's.summary',
      db.raw('row_number() over (partition by s.site_id order by s.created_at desc, s.id desc) as rn'),
    );
  const rows = await db
    .from(ranked.as('r'))
    .where('rn', '<=', perSite)
    .orderBy([
      { column: 'site_id', order: 'asc' },
      { column: 'created_at', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .select<Row[]>('site_id', 'id', 'sha', 'created_at', 'summary');
  for (const r of rows) {
    out.get(r.site_id)?.push({
      siteId: r.site_id,
      scanId: r.id,
      sha: r.sha,
      createdAt: r.created_at,
      summary: JSON.parse(r.summary) as ScanSummary,
    });
  }
  return out;
}
