import type { Knex } from 'knex';
import { dayOf, historyDays } from '../../domain/history/days.js';
import { replayScans, type HistorySpan } from '../../domain/history/spans.js';
import type { ScanRecord } from '../../store/scans/scans.js';
import { replaceDays } from '../../store/history/days.js';
import { historyScanDays, historyScansFrom } from '../../store/history/scans.js';
import {
  latestSpansOf,
  lockSiteHistory,
  openSpans,
  rewindSpans,
  spansSince,
  writeSpans,
} from '../../store/history/spans.js';
import { getSite } from '../../store/sites/sites.js';
import { keepPortfolio } from '../portfolio/keep.js';

/**
 * Keeps a site's history as a scan completes, in the transaction that completes it (docs/portfolio.md):
 * only a full scan of the site's base branch counts. The spans are taken back to the scan's time and
 * the scans from then on replayed (for a scan that arrives in order, itself alone), then the figures
 * of its day and every later day with a scan are drawn again from the spans, and the org view's
 * figures of the site with them.
 */
export async function keepHistory(trx: Knex.Transaction, scan: ScanRecord): Promise<void> {
  if (scan.scope !== 'full' || scan.branch === null) return;
  const site = await getSite(trx, scan.org, scan.siteId);
  if (!site || site.baseBranch !== scan.branch) return;
  const ref = { org: scan.org, siteId: scan.siteId };
  await lockSiteHistory(trx, ref);
  const at = scan.scannedAt ?? scan.createdAt;
  await rewindSpans(trx, ref, at);
  const latest = await openSpans(trx, ref);
  const changed = new Set<HistorySpan>();
  for await (const replayed of historyScansFrom(trx, ref, site.baseBranch, at)) {
    const unknown = [...replayed.issues.keys()].filter((f) => !latest.has(f));
    for (const [f, span] of await latestSpansOf(trx, ref, unknown)) latest.set(f, span);
    for (const span of replayScans(latest, [replayed])) changed.add(span);
  }
  await writeSpans(trx, ref, [...changed]);
  const from = dayOf(at);
  const days = await historyScanDays(trx, ref, site.baseBranch, from);
  const spans = await spansSince(trx, ref, `${from}T00:00:00.000Z`);
  await replaceDays(trx, ref, from, historyDays(days, spans));
  await keepPortfolio(trx, ref, site.baseBranch, { id: scan.id, at });
}
