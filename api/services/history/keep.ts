import type { Knex } from 'knex';
import { dayOf, historyDays, latestScanDay } from '../../domain/history/days.js';
import { replayScans, type HistoryScan, type HistorySpan } from '../../domain/history/spans.js';
import { findScan, type ScanRecord } from '../../store/scans/scans.js';
import { queuedHistory, queueHistory, takeQueuedHistory } from '../../store/history/queue.js';
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
import { keepPortfolio } from '../portfolio/keep.js';

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
 * Queues a completed scan for its site's history (docs/portfolio.md), in the transaction that completes
 * it: only a full scan of the site's base branch counts. The history job keeps it soon after, or the
 * first read of the site's history or of its org's figures does, whichever comes first: the ingest pays
 * one row, and no read sees a history without it.
 */
export async function queueScanHistory(trx: Knex.Transaction, scan: ScanRecord): Promise<void> {
  if ((await historyBranch(trx, scan)) === undefined) return;
  await queueHistory(trx, {
    org: scan.org,
    siteId: scan.siteId,
    scanId: scan.id,
    at: scan.scannedAt ?? scan.createdAt,
  });
}

/** How many queued scans one call keeps at most (a read drains its scope in such turns). */
const QUEUE_TURN = 200;

/**
 * Keeps the queued scans of a site, an org or (no scope) every org, oldest in the history first, each in
 * a transaction of its own that takes it off the queue: one that another instance or read took first is
 * passed over. Returns how many it kept.
 */
export async function keepQueuedHistory(
  db: Knex,
  scope: { org?: string; siteId?: string } = {},
): Promise<number> {
  let kept = 0;
  for (;;) {
    const queued = await queuedHistory(db, scope, QUEUE_TURN);
    for (const q of queued) {
      await db.transaction(async (trx) => {
        await lockSiteHistory(trx, q);
        if (!(await takeQueuedHistory(trx, q.scanId))) return;
        // A scan removed since (retention, its site deleted) has nothing to keep.
        const scan = await findScan(trx, q.org, q.scanId);
        if (scan) await keepHistory(trx, scan);
        kept++;
      });
    }
    if (queued.length < QUEUE_TURN) return kept;
  }
}

/**
 * Keeps a site's history with one of its scans: a scan newer than every other of the site (the common
 * case) is applied to the open spans alone and its day updated from them; a scan in the past takes the
 * spans back to its time and replays the scans from then on, then draws the figures of its day and every
 * later day with a scan again. The org view's figures of the site are kept with it (`keepPortfolio`).
 */
async function keepHistory(trx: Knex.Transaction, scan: ScanRecord): Promise<void> {
  const branch = await historyBranch(trx, scan);
  if (branch === undefined) return;
  // Under the site's history lock, which keepQueuedHistory took with the scan off the queue.
  const ref = { org: scan.org, siteId: scan.siteId };
  const at = scan.scannedAt ?? scan.createdAt;
  const latest = !(await laterHistoryScan(trx, ref, branch, at, scan.id));
  await keepSpansAndDays(trx, ref, branch, { id: scan.id, at, latest });
  await keepPortfolio(trx, ref, branch, { id: scan.id, at });
}

async function keepSpansAndDays(
  trx: Knex.Transaction,
  ref: SiteRef,
  branch: string,
  scan: { id: string; at: string; latest: boolean },
): Promise<void> {
  const { at } = scan;
  if (scan.latest) {
    const latest = await openSpans(trx, ref);
    // A span opened from `at` on can only be left by a scan since removed: replay to be safe.
    if ([...latest.values()].every((s) => s.openedAt < at)) {
      const observed = await readScan(trx, ref, branch, at, scan.id);
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
