import type { Knex } from 'knex';
import { pageKey } from '../../../core/url-normalisation.js';
import type { SiteRef } from '../history/spans.js';

/**
 * Each page address a site's full base-branch scans had in a year (docs/portfolio.md): when first and
 * last scanned that year, and its open issues at that last scan. Kept as scans complete, whatever order
 * they arrive in, for the Section 508 figures.
 */

/** A stored scan's violations per page address (every viewport of it). */
export async function scanOpenByPage(trx: Knex.Transaction, scanId: string): Promise<Map<string, number>> {
  const pages = await trx('scan_pages')
    .where({ scan_id: scanId })
    .select<Array<{ page_index: number; normalized_url: string }>>('page_index', 'normalized_url');
  const counts = await trx('scan_issues')
    .where({ scan_id: scanId, kind: 'violation' })
    .groupBy('page_index')
    .select<Array<{ page_index: number; n: number | string }>>('page_index', trx.raw('count(*) as n'));
  const open = new Map(counts.map((c) => [c.page_index, Number(c.n)]));
  const byPage = new Map<string, number>();
  for (const p of pages) {
    const page = pageKey(p.normalized_url);
    byPage.set(page, (byPage.get(page) ?? 0) + (open.get(p.page_index) ?? 0));
  }
  return byPage;
}

/** Records a scan's pages in the year of `at`; a page's open issues follow its latest scan of the year. */
export async function keepScanPages(
  trx: Knex.Transaction,
  s: SiteRef,
  at: string,
  byPage: ReadonlyMap<string, number>,
): Promise<void> {
  const year = Number(at.slice(0, 4));
  const rows = [...byPage].map(([page, n]) => ({
    org: s.org,
    site_id: s.siteId,
    year,
    page,
    first_at: at,
    last_at: at,
    open_issues: n,
  }));
  // The stored row keeps the earliest first and the latest last scan; its open issues are the latest's.
  for (let i = 0; i < rows.length; i += 500) {
    await trx('history_pages')
      .insert(rows.slice(i, i + 500))
      .onConflict(['org', 'site_id', 'year', 'page'])
      .merge({
        first_at: trx.raw(
          'case when excluded.first_at < history_pages.first_at then excluded.first_at else history_pages.first_at end',
        ),
        open_issues: trx.raw(
          'case when excluded.last_at >= history_pages.last_at then excluded.open_issues else history_pages.open_issues end',
        ),
        last_at: trx.raw(
          'case when excluded.last_at > history_pages.last_at then excluded.last_at else history_pages.last_at end',
        ),
      });
  }
}

export interface YearPage {
  siteId: string;
  page: string;
  openIssues: number;
}

/** The pages of the year, of the given sites only when `siteIds` is set. */
export async function readYearPages(
  db: Knex,
  org: string,
  siteIds: readonly string[] | undefined,
  year: number,
): Promise<YearPage[]> {
  const q = db('history_pages').where({ org, year });
  if (siteIds !== undefined) q.whereIn('site_id', siteIds.length > 0 ? [...siteIds] : ['']);
  const rows = await q
    .orderBy(['site_id', 'page'])
    .select<Array<{ site_id: string; page: string; open_issues: number | string }>>(
      'site_id',
      'page',
      'open_issues',
    );
  return rows.map((r) => ({ siteId: r.site_id, page: r.page, openIssues: Number(r.open_issues) }));
}
