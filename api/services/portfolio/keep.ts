import type { Knex } from 'knex';
import { fixGroups, type FixIssue } from '../../domain/portfolio/fixes.js';
import type { SiteRef } from '../../store/history/spans.js';
import { latestOpenIssues, replaceFixes } from '../../store/portfolio/fixes.js';
import { keepScanPages, scanOpenByPage } from '../../store/portfolio/pages.js';

/** What the org view reads of a scan, as the ingest prepared it (`HistoryScanGatherer`). */
export interface PreparedForPortfolio {
  /** Violations per page address (every viewport of it). */
  openByPage: ReadonlyMap<string, number>;
  /** Every violation as the fix ranking reads it, in the order they are stored. */
  fixIssues: readonly FixIssue[];
}

/**
 * Keeps the org view's figures of a site as one of its full base-branch scans completes, in the
 * history's transaction (docs/portfolio.md): the scan's pages in its year, and the ranked causes of the
 * site's open issues, drawn again from its latest full scan. `gathered`, the scan as the ingest prepared
 * it, spares reading it back: its pages always, its issues when it is the latest (not imported from the
 * past).
 */
export async function keepPortfolio(
  trx: Knex.Transaction,
  site: SiteRef,
  branch: string,
  scan: { id: string; sha: string | null; at: string; latest: boolean },
  gathered?: PreparedForPortfolio,
): Promise<void> {
  await keepScanPages(trx, site, scan.at, gathered?.openByPage ?? (await scanOpenByPage(trx, scan.id)));
  const latest =
    scan.latest && gathered
      ? { sha: scan.sha, issues: gathered.fixIssues }
      : await latestOpenIssues(trx, site, branch);
  await replaceFixes(trx, site, latest ? fixGroups(latest.issues) : [], latest?.sha ?? null);
}
