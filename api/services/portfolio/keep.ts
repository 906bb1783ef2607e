import type { Knex } from 'knex';
import { fixGroups } from '../../domain/portfolio/fixes.js';
import type { SiteRef } from '../../store/history/spans.js';
import { latestOpenIssues, replaceFixes } from '../../store/portfolio/fixes.js';
import { keepScanPages, scanOpenByPage } from '../../store/portfolio/pages.js';

/**
 * Keeps the org view's figures of a site with one of its full base-branch scans, in the history's
 * transaction (docs/portfolio.md): the scan's pages in its year, and the ranked causes of the
 * site's open issues, drawn again from its latest full scan.
 */
export async function keepPortfolio(
  trx: Knex.Transaction,
  site: SiteRef,
  branch: string,
  scan: { id: string; at: string },
): Promise<void> {
  await keepScanPages(trx, site, scan.at, await scanOpenByPage(trx, scan.id));
  const latest = await latestOpenIssues(trx, site, branch);
  await replaceFixes(trx, site, latest ? fixGroups(latest.issues) : [], latest?.sha ?? null);
}
