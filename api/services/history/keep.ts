import type { Knex } from 'knex';
import { viewportPageKey } from '../../../core/matching/fingerprint.js';
import { pageKey } from '../../../core/url-normalisation.js';
import { dayOf, historyDays, latestScanDay } from '../../domain/history/days.js';
import {
  replayScans,
  type HistoryScan,
  type HistorySpan,
  type ObservedIssue,
} from '../../domain/history/spans.js';
import { fixIssueOf, type FixIssue } from '../../domain/portfolio/fixes.js';
import type { PreparedIssue, PreparedPage } from '../../domain/scans/preparation.js';
import type { ScanRecord } from '../../store/scans/scans.js';
import { addScanToDay, replaceDays } from '../../store/history/days.js';
import { historyScanDays, historyScansFrom, laterHistoryScan } from '../../store/history/scans.js';
import {
  latestSpansOf,
  lockSiteHistory,
  openSpans,
  rewindSpans,
  spansSince,
  writeSpans,
  type SiteRef,
} from '../../store/history/spans.js';
import { getSite } from '../../store/sites/sites.js';
import { keepPortfolio, type PreparedForPortfolio } from '../portfolio/keep.js';

/** Whether a scan counts in its site's history: a full scan of the site's base branch. */
async function historyBranch(
  db: Knex,
  scan: { org: string; siteId: string; scope: string | null; branch: string | null },
): Promise<string | undefined> {
  if (scan.scope !== 'full' || scan.branch === null) return undefined;
  const site = await getSite(db, scan.org, scan.siteId);
  return site?.baseBranch === scan.branch ? scan.branch : undefined;
}

/**
 * What the history and the org view read of a scan, gathered as the ingest prepares each page, so that
 * a scan newer than the site's others is kept without reading its issues back.
 */
export class HistoryScanGatherer implements PreparedForPortfolio {
  private readonly pageKeys = new Set<string>();
  private readonly issues = new Map<string, ObservedIssue>();
  readonly openByPage = new Map<string, number>();
  readonly fixIssues: FixIssue[] = [];

  /** A gatherer when the scan counts in its site's history (ask after the site exists), else undefined. */
  static async forScan(
    trx: Knex.Transaction,
    scan: { org: string; siteId: string; scope: string | null; branch: string | null },
  ): Promise<HistoryScanGatherer | undefined> {
    return (await historyBranch(trx, scan)) === undefined ? undefined : new HistoryScanGatherer();
  }

  add(page: PreparedPage, issues: readonly PreparedIssue[]): void {
    const address = pageKey(page.normalizedUrl);
    const key = viewportPageKey(address, page.viewport);
    this.pageKeys.add(key);
    const violations = issues.filter((i) => i.kind === 'violation');
    this.openByPage.set(address, (this.openByPage.get(address) ?? 0) + violations.length);
    for (const i of violations) this.fixIssues.push(fixIssueOf(page.url, i));
    // As the read-back does: violations only, the first of an identity.
    for (const i of issues) {
      if (i.kind !== 'violation' || this.issues.has(i.fingerprint)) continue;
      this.issues.set(i.fingerprint, { rule: i.rule, impact: i.impact, pageKey: key });
    }
  }

  scanAt(at: string): HistoryScan {
    return { at, pageKeys: this.pageKeys, issues: this.issues };
  }
}

/**
 * Keeps a site's history as a scan completes, in the transaction that completes it (docs/portfolio.md):
 * only a full scan of the site's base branch counts. A scan newer than every other of the site (the
 * common case) is applied to the open spans alone and its day updated from them; a scan in the past
 * takes the spans back to its time and replays the scans from then on, then draws the figures of its
 * day and every later day with a scan again. `gathered` is the scan as the ingest prepared it, when it
 * did.
 * The org view's figures of the site are kept with it (`keepPortfolio`).
 */
export async function keepHistory(
  trx: Knex.Transaction,
  scan: ScanRecord,
  gathered?: HistoryScanGatherer,
): Promise<void> {
  const branch = await historyBranch(trx, scan);
  if (branch === undefined) return;
  const ref = { org: scan.org, siteId: scan.siteId };
  await lockSiteHistory(trx, ref);
  const at = scan.scannedAt ?? scan.createdAt;
  const latest = !(await laterHistoryScan(trx, ref, branch, at, scan.id));
  await keepSpansAndDays(trx, ref, branch, { id: scan.id, at, latest }, gathered);
  await keepPortfolio(trx, ref, branch, { id: scan.id, sha: scan.sha, at, latest }, gathered);
}

async function keepSpansAndDays(
  trx: Knex.Transaction,
  ref: SiteRef,
  branch: string,
  scan: { id: string; at: string; latest: boolean },
  gathered: HistoryScanGatherer | undefined,
): Promise<void> {
  const { at } = scan;
  if (scan.latest) {
    const latest = await openSpans(trx, ref);
    // A span opened from `at` on can only be left by a scan since removed: replay to be safe.
    if ([...latest.values()].every((s) => s.openedAt < at)) {
      const observed = gathered?.scanAt(at) ?? (await readScan(trx, ref, branch, at, scan.id));
      await keepLatestScan(trx, ref, latest, observed);
      return;
    }
  }
  await replayFrom(trx, ref, branch, at);
}

async function readScan(
  trx: Knex.Transaction,
  ref: SiteRef,
  branch: string,
  at: string,
  scanId: string,
): Promise<HistoryScan> {
  for await (const s of historyScansFrom(trx, ref, branch, at, scanId)) return s;
  throw new Error(`scan ${scanId} is not a complete full scan of ${branch}`);
}

/** The in-order case: one read of the open spans, the changes worked out in memory, the day upserted. */
async function keepLatestScan(
  trx: Knex.Transaction,
  ref: SiteRef,
  latest: Map<string, HistorySpan>,
  observed: HistoryScan,
): Promise<void> {
  const unknown = [...observed.issues.keys()].filter((f) => !latest.has(f));
  for (const [f, span] of await latestSpansOf(trx, ref, unknown)) latest.set(f, span);
  const changed = replayScans(latest, [observed]);
  await writeSpans(trx, ref, changed);
  const open = [...latest.values()].filter((s) => s.endedAt === null);
  await addScanToDay(trx, ref, latestScanDay(dayOf(observed.at), open, changed));
}

async function replayFrom(trx: Knex.Transaction, ref: SiteRef, branch: string, at: string): Promise<void> {
  await rewindSpans(trx, ref, at);
  const latest = await openSpans(trx, ref);
  const changed = new Set<HistorySpan>();
  for await (const replayed of historyScansFrom(trx, ref, branch, at)) {
    const unknown = [...replayed.issues.keys()].filter((f) => !latest.has(f));
    for (const [f, span] of await latestSpansOf(trx, ref, unknown)) latest.set(f, span);
    for (const span of replayScans(latest, [replayed])) changed.add(span);
  }
  await writeSpans(trx, ref, [...changed]);
  const from = dayOf(at);
  const days = await historyScanDays(trx, ref, branch, from);
  const spans = await spansSince(trx, ref, `${from}T00:00:00.000Z`);
  await replaceDays(trx, ref, from, historyDays(days, spans));
}
