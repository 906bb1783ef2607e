import type { Knex } from 'knex';
import { fixGroups } from '../../domain/portfolio/fixes.js';
import type { SiteRef } from '../../store/history/spans.js';
import { latestOpenIssues, replaceFixes } from '../../store/portfolio/fixes.js';
import { keepScanPages } from '../../store/portfolio/pages.js';

/**
 * Keeps the org view's figures of a site as one of its full base-branch scans completes, in the
 * history's transaction (docs/portfolio.md): the scan's pages in its year, and the ranked causes of the
 * site's open issues, drawn again from its latest full scan (the scan itself, unless it was imported
 * from the past).
 */
export async function keepPortfolio(
  trx: Knex.Transaction,
  site: SiteRef,
  branch: string,
  scan: { id: string; at: string },
): Promise<void> {
  await keepScanPages(trx, site, scan.id, scan.at);
  const latest = await latestOpenIssues(trx, site, branch);
  await replaceFixes(trx, site, latest ? fixGroups(latest.issues) : [], latest?.sha ?? null);
}
