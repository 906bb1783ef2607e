import type { Knex } from 'knex';
import type { ApiContext } from '../../context.js';
import { domainErrors } from '../../domain/errors.js';
import { nowIso } from '../../domain/ids.js';
import { addSummaries, scanWarnings } from '../../domain/scans/summary.js';
import { pageLimitError } from '../../domain/scans/preparation.js';
import { recordEvent } from '../../outbox/record.js';
import { deleteScanRows } from '../../store/scans/deletion.js';
import {
  distinctPageRules,
  expiredOpenScans,
  findPart,
  insertPart,
  lockScan,
  pageAddressesOf,
  pageFactsOf,
  type ScanState,
} from '../../store/scans/parts.js';
import { markScanComplete, updateScanTotals } from '../../store/scans/writes.js';
import { nextPageIndex, scanSharding, shardsOf } from '../../store/scans/shards.js';
import { missingShardsText, shardStatus } from '../../../core/scans/shards.js';
import type { ScanRecord } from '../../store/scans/scans.js';
import { queueScanHistory } from '../history/keep.js';
import {
  announceScan,
  preparationFailure,
  presentCreatedScan,
  presentOpenScan,
  scanBuilder,
  scanCreatedAt,
  storePages,
  type PageSource,
} from './scans.js';

/**
 * A scan sent in parts: opened by `POST /scans` with `complete: false`, pages appended part by part,
 * then completed, which computes what needs every page (warnings, the rule list) and writes the
 * `scan.created` event. Until then no list, gate or report sees the scan.
 */

/** An open scan of the org that has not run out of time; a finished one is a conflict. */
export async function openScanOf(trx: Knex.Transaction, org: string, id: string): Promise<ScanState> {
  const scan = await lockScan(trx, org, id);
  if (
    !scan ||
    scan.status === 'deleted' ||
    (scan.status === 'open' && scan.expiresAt !== null && scan.expiresAt < nowIso())
  ) {
    throw domainErrors.notFound('open scan');
  }
  if (scan.status !== 'open') throw domainErrors.conflict('The scan is complete: it takes no more pages.');
  return scan;
}

export interface PartIdentity {
  /** The request's Idempotency-Key: a part stored under it is never stored again. */
  key?: string;
  requestHash?: string;
}

/** Appends one part's pages to an open scan, in one transaction with the part's Idempotency-Key. */
export async function appendScanPart(
  ctx: ApiContext,
  org: string,
  scanId: string,
  pages: PageSource,
  part: PartIdentity,
) {
  const tooMany = pageLimitError(pages.count, ctx.config.limits);
  if (tooMany) throw preparationFailure(tooMany);
  return ctx.db.transaction(async (trx) => {
    const scan = await openScanOf(trx, org, scanId);
    const earlier = part.key ? await findPart(trx, scanId, part.key) : undefined;
    if (earlier) {
      if (earlier.requestHash !== (part.requestHash ?? '')) {
        throw domainErrors.conflict('This Idempotency-Key was already used for another part of this scan.');
      }
      return partAnswer(scan, earlier.firstPage, earlier.pageCount, earlier.issueCount, true);
    }
    if ((await scanSharding(trx, scanId)).shards !== null) {
      throw domainErrors.invalid([
        { pointer: '#/shard', detail: 'is required: the scan was opened with `shards`' },
      ]);
    }
    const overScan = pageLimitError(pages.count, ctx.config.limits, scan.pageCount);
    if (overScan) throw preparationFailure(overScan);
    const first = await nextPageIndex(trx, scanId);
    const builder = await scanBuilder(ctx, scan, pages, {
      pageIndex: first,
      issueCount: scan.issueCount,
      addresses: await pageAddressesOf(trx, scanId),
    });
    await storePages(trx, builder, scanId, pages);
    const totals = {
      pageCount: scan.pageCount + builder.pages,
      issueCount: scan.issueCount + builder.issues,
      summary: addSummaries(scan.summary, builder.summary),
      engine: scan.engine ?? builder.engine,
      htmlTruncated: scan.htmlTruncated + builder.truncated,
    };
    await updateScanTotals(trx, scanId, totals);
    if (part.key) {
      await insertPart(
        trx,
        scanId,
        part.key,
        {
          requestHash: part.requestHash ?? '',
          firstPage: first,
          pageCount: builder.pages,
          issueCount: builder.issues,
        },
        nowIso(),
      );
    }
    const after = { ...scan, pageCount: totals.pageCount, issueCount: totals.issueCount };
    return partAnswer(after, first, builder.pages, builder.issues, false);
  });
}

function partAnswer(scan: ScanState, first: number, pages: number, issues: number, replayed: boolean) {
  return {
    ...presentOpenScan(scan),
    part: { first_page_index: first, pages, issues, replayed },
  };
}

/**
 * Completes an open scan: warnings over every page, the union of the rules that ran, the creation time
 * (which orders "the latest scan"), and the `scan.created` event, in one transaction. Completing a
 * complete scan answers it again without a second event. A scan opened with a shard count completes
 * only when every shard has reported: else it stays open and the answer names the missing shards.
 */
export async function completeScan(ctx: ApiContext, org: string, scanId: string): Promise<ScanRecord> {
  return (await finishScan(ctx, org, scanId)).scan;
}

export async function finishScan(
  ctx: ApiContext,
  org: string,
  scanId: string,
): Promise<{ scan: ScanRecord; completedNow: boolean }> {
  let completedNow = false;
  const scan = await ctx.db.transaction(async (trx) => {
    const state = await lockScan(trx, org, scanId);
    if (state?.status === 'complete') return state;
    const open = await openScanOf(trx, org, scanId);
    const sharding = await scanSharding(trx, scanId);
    if (sharding.shards !== null) {
      const reported = (await shardsOf(trx, scanId)).filter((x) => x.reportedAt !== null);
      const status = shardStatus(
        sharding.shards,
        reported.map((x) => x.shard),
      );
      if (status.missing.length > 0) {
        throw domainErrors.conflict(`The scan stays open: ${missingShardsText(status)}.`, {
          missing_shards: status.missing,
          shards: status,
        });
      }
    }
    completedNow = true;
    return completeOpenScan(ctx, trx, org, open);
  });
  if (completedNow) await announceScan(ctx, org, scan);
  return { scan, completedNow };
}

/** The completion itself, in the caller's transaction (a shard's last part completes its scan too). */
export async function completeOpenScan(
  ctx: ApiContext,
  trx: Knex.Transaction,
  org: string,
  open: ScanState,
): Promise<ScanRecord> {
  const facts = await pageFactsOf(trx, open.id);
  const rules = new Set(open.rulesRun ?? []);
  const pageLists = await distinctPageRules(trx, open.id);
  for (const list of pageLists) for (const id of list) rules.add(id);
  const done = await markScanComplete(trx, open.id, {
    warnings: scanWarnings(facts, open.htmlTruncated, ctx.config.limits.issueHtmlBytes),
    rulesRun: open.rulesRun === null && pageLists.length === 0 ? null : [...rules].sort(),
    createdAt: scanCreatedAt(),
  });
  await queueScanHistory(trx, done);
  await recordEvent(
    trx,
    org,
    { type: 'scan.created', data: presentCreatedScan(done) },
    { publicUrl: ctx.config.publicUrl },
  );
  return done;
}

/** Removes open scans whose time ran out, a few at a time, each in short batches of rows. */
export async function removeExpiredOpenScans(ctx: ApiContext, limit = 20): Promise<number> {
  const ids = await expiredOpenScans(ctx.db, nowIso(), limit);
  for (const id of ids) {
    await deleteScanRows(ctx.db, id);
    ctx.logger.info({ scan_id: id }, 'open scan expired and removed');
  }
  return ids.length;
}
