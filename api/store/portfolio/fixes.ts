import type { Knex } from 'knex';
import type { Impact } from '../../../core/impact.js';
import { fixIssueOf, type FixGroup, type FixIssue, type FixKind } from '../../domain/portfolio/fixes.js';
import { SCAN_TIME_SQL } from '../history/scans.js';
import type { SiteRef } from '../history/spans.js';
import { insertInChunks } from '../db.js';
import { sourceFromColumns } from '../scans/scans.js';

/** The ranked shared causes of each site's open issues (docs/portfolio.md), kept as scans complete. */

/** Groups kept per site: more than any top-N read asks for. */
export const MAX_KEPT_FIXES = 100;

/** The site's latest full scan of `branch` (by its time in history): its open issues, as the ranking reads them. */
export async function latestOpenIssues(
  trx: Knex.Transaction,
  s: SiteRef,
  branch: string,
): Promise<{ sha: string | null; issues: FixIssue[] } | undefined> {
  const scan = await trx('scans')
    .where({ org: s.org, site_id: s.siteId, branch, status: 'complete' })
    .andWhere((w) => {
      w.where('scope', 'full').orWhereNull('scope');
    })
    .orderByRaw(`${SCAN_TIME_SQL} desc, id desc`)
    .first<{ id: string; sha: string | null } | undefined>('id', 'sha');
  if (!scan) return undefined;
  const rows = await trx('scan_issues as i')
    .join('scan_pages as p', (j) => {
      j.on('p.scan_id', '=', 'i.scan_id').andOn('p.page_index', '=', 'i.page_index');
    })
    .where({ 'i.scan_id': scan.id, 'i.kind': 'violation' })
    .orderBy('i.id')
    .select<
      Array<{
        url: string;
        rule: string;
        impact: Impact | null;
        selector: string | null;
        html: string | null;
        source_path: string | null;
        source_line: number | string | null;
      }>
    >('p.url', 'i.rule', 'i.impact', 'i.selector', 'i.html', 'i.source_path', 'i.source_line');
  return {
    sha: scan.sha,
    issues: rows.map((r) => fixIssueOf(r.url, { ...r, source: sourceFromColumns(r) })),
  };
}

/** Replaces the site's kept groups with the first `MAX_KEPT_FIXES` of `groups` (ranked). */
export async function replaceFixes(
  trx: Knex.Transaction,
  s: SiteRef,
  groups: readonly FixGroup[],
  sha: string | null,
): Promise<void> {
  await trx('history_fixes').where({ org: s.org, site_id: s.siteId }).delete();
  await insertInChunks(
    trx,
    'history_fixes',
    groups.slice(0, MAX_KEPT_FIXES).map((g) => ({
      org: s.org,
      site_id: s.siteId,
      kind: g.kind,
      path: g.path,
      line: g.line,
      markup: g.markup,
      rules: JSON.stringify(g.rules),
      impact: g.impact,
      score: g.score,
      page_count: g.pageCount,
      issue_count: g.issueCount,
      pages: JSON.stringify(g.pages),
      selector: g.selector,
      sha,
    })),
  );
}

export interface KeptFix extends FixGroup {
  siteId: string;
  /** The commit of the scan the group was drawn from. */
  sha: string | null;
}

interface FixRow {
  site_id: string;
  kind: FixKind;
  path: string | null;
  line: number | string | null;
  markup: string | null;
  rules: string;
  impact: Impact | null;
  score: number | string;
  page_count: number | string;
  issue_count: number | string;
  pages: string;
  selector: string | null;
  sha: string | null;
}

/**
 * The org's best `limit` kept groups, ranked as `compareFixes` ranks them; of the given sites only when
 * `siteIds` is set.
 */
export async function readTopFixes(
  db: Knex,
  org: string,
  siteIds: readonly string[] | undefined,
  limit: number,
): Promise<KeptFix[]> {
  const q = db('history_fixes').where({ org });
  if (siteIds !== undefined) q.whereIn('site_id', siteIds.length > 0 ? [...siteIds] : ['']);
  const rows = await q
    .orderBy([
      { column: 'score', order: 'desc' },
      { column: 'page_count', order: 'desc' },
      { column: 'issue_count', order: 'desc' },
      { column: 'site_id', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .limit(limit)
    .select<FixRow[]>();
  return rows.map((r) => ({
    siteId: r.site_id,
    kind: r.kind,
    path: r.path,
    line: r.line === null ? null : Number(r.line),
    markup: r.markup,
    selector: r.selector,
    rules: JSON.parse(r.rules) as string[],
    impact: r.impact,
    score: Number(r.score),
    pageCount: Number(r.page_count),
    issueCount: Number(r.issue_count),
    pages: JSON.parse(r.pages) as string[],
    sha: r.sha,
  }));
}
