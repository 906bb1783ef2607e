import type { Knex } from 'knex';
import type { ScanBuilder } from '../../domain/scans/builder.js';
import type { ApiContext } from '../../context.js';
import { domainErrors } from '../../domain/errors.js';
import { nowIso } from '../../domain/ids.js';
import { pageLimitError } from '../../domain/scans/preparation.js';
import { shardStatus, type ShardStatus } from '../../../core/scans/shards.js';
import { addSummaries, emptySummary, subtractSummary } from '../../domain/scans/summary.js';
import { findPart, insertPart, lockScan, pageAddressesOf, type ScanState } from '../../store/scans/parts.js';
import type { ScanRecord } from '../../store/scans/scans.js';
import {
  deleteShardRows,
  labelShardPages,
  nextPageIndex,
  scanSharding,
  shardsOf,
  writeShard,
  type ShardRecord,
} from '../../store/scans/shards.js';
import { updateScanTotals } from '../../store/scans/writes.js';
import { completeOpenScan, openScanOf, type PartIdentity } from './parts.js';
import {
  announceScan,
  preparationFailure,
  presentCreatedScan,
  presentOpenScan,
  scanBuilder,
  storePages,
  type PageSource,
} from './scans.js';

/**
 * A scan sent in shards by parallel CI jobs. The jobs name one open scan by a group key (the first opens
 * it, the others find it), each sends its pages in parts naming its shard, and the scan completes when
 * the last shard reports (or on request). A shard sent again replaces its own pages.
 */

export interface ShardPart {
  shard: number;
  /** Which of the shard's parts this is, 1-based; part 1 starts the shard afresh. */
  shardPart: number;
  shardParts: number;
}

export async function statusOf(db: Knex, scanId: string, total: number | null): Promise<ShardStatus> {
  const shards = await shardsOf(db, scanId);
  return shardStatus(
    total,
    shards.filter((s) => s.reportedAt !== null).map((s) => s.shard),
  );
}

/** The answer for a group's scan, open or complete. */
export async function groupAnswer(db: Knex, scan: ScanState, group: string | null, total: number | null) {
  const shards = await statusOf(db, scan.id, total);
  if (scan.status === 'complete') {
    return { ...presentCreatedScan(scan), status: 'complete' as const, scan_group: group ?? '', shards };
  }
  return { ...presentOpenScan(scan), ...(group ? { scan_group: group } : {}), shards };
}

function checkShard(part: ShardPart, total: number | null): void {
  const errors = [];
  if (total !== null && part.shard > total) {
    errors.push({ pointer: '#/shard', detail: `must be at most ${total}: the scan has ${total} shards` });
  }
  if (part.shardPart > part.shardParts) {
    errors.push({ pointer: '#/shard_part', detail: `must be at most shard_parts (${part.shardParts})` });
  }
  if (errors.length > 0) throw domainErrors.invalid(errors);
}

/** The shard's record after taking its earlier pages out (part 1), or as it stands (a later part). */
async function shardBefore(
  trx: Knex.Transaction,
  scan: ScanState,
  part: ShardPart,
): Promise<{ shard: ShardRecord; scan: ScanState }> {
  const current = (await shardsOf(trx, scan.id)).find((s) => s.shard === part.shard);
  if (part.shardPart === 1) {
    const fresh: ShardRecord = {
      shard: part.shard,
      parts: part.shardParts,
      partsReceived: 0,
      pageCount: 0,
      issueCount: 0,
      htmlTruncated: 0,
      summary: emptySummary(),
      reportedAt: null,
    };
    if (!current || current.pageCount + current.partsReceived === 0) return { shard: fresh, scan };
    await deleteShardRows(trx, scan.id, part.shard);
    const without = {
      ...scan,
      pageCount: scan.pageCount - current.pageCount,
      issueCount: scan.issueCount - current.issueCount,
      summary: subtractSummary(scan.summary, current.summary),
      htmlTruncated: scan.htmlTruncated - current.htmlTruncated,
    };
    return { shard: fresh, scan: without };
  }
  if (!current || current.parts !== part.shardParts || current.partsReceived !== part.shardPart - 1) {
    const had = current ? `${current.partsReceived} of ${current.parts}` : 'none';
    throw domainErrors.conflict(
      `Part ${part.shardPart} of ${part.shardParts} of shard ${part.shard} is out of order: the shard has ${had} of its parts. Send its parts in order, starting with part 1.`,
    );
  }
  return { shard: current, scan };
}

/** The shard's record with this part's pages added; reported when this was its last part. */
function shardAfter(shard: ShardRecord, part: ScanBuilder, now: string): ShardRecord {
  const received = shard.partsReceived + 1;
  return {
    ...shard,
    partsReceived: received,
    pageCount: shard.pageCount + part.pages,
    issueCount: shard.issueCount + part.issues,
    htmlTruncated: shard.htmlTruncated + part.truncated,
    summary: addSummaries(shard.summary, part.summary),
    reportedAt: received === shard.parts ? now : null,
  };
}

/**
 * Stores one part of a shard in one transaction with its Idempotency-Key. Part 1 replaces what an earlier
 * run of the shard sent; the last part reports the shard, and when it is the last shard to report, the
 * scan completes in the same transaction.
 */
export async function appendShardPart(
  ctx: ApiContext,
  org: string,
  scanId: string,
  pages: PageSource,
  key: PartIdentity,
  part: ShardPart,
) {
  const tooMany = pageLimitError(pages.count, ctx.config.limits);
  if (tooMany) throw preparationFailure(tooMany);
  let completed: ScanRecord | null = null;
  const answer = await ctx.db.transaction(async (trx) => {
    const state = await lockScan(trx, org, scanId);
    const { shards: total } = await scanSharding(trx, scanId);
    const earlier = key.key && state ? await findPart(trx, scanId, key.key) : undefined;
    if (state && earlier) {
      if (earlier.requestHash !== (key.requestHash ?? '')) {
        throw domainErrors.conflict('This Idempotency-Key was already used for another part of this scan.');
      }
      return replayedPart(trx, state, total, earlier);
    }
    if (state?.status === 'complete') {
      throw domainErrors.conflict('The scan is complete: it takes no more pages.', {
        scan_status: 'complete',
      });
    }
    const open = await openScanOf(trx, org, scanId);
    checkShard(part, total);
    const { shard, scan } = await shardBefore(trx, open, part);
    const overScan = pageLimitError(pages.count, ctx.config.limits, scan.pageCount);
    if (overScan) throw preparationFailure(overScan);
    const first = await nextPageIndex(trx, scanId);
    const builder = await scanBuilder(ctx, scan, pages, {
      pageIndex: first,
      issueCount: scan.issueCount,
      // After part 1 took the shard's earlier pages out: their addresses are free for this run's.
      addresses: await pageAddressesOf(trx, scanId),
    });
    await storePages(trx, builder, scanId, pages);
    await labelShardPages(trx, scanId, first, part.shard);
    const now = nowIso();
    const totals = {
      pageCount: scan.pageCount + builder.pages,
      issueCount: scan.issueCount + builder.issues,
      summary: addSummaries(scan.summary, builder.summary),
      engine: scan.engine ?? builder.engine,
      htmlTruncated: scan.htmlTruncated + builder.truncated,
    };
    await updateScanTotals(trx, scanId, totals);
    await writeShard(trx, scanId, shardAfter(shard, builder, now), now);
    if (key.key) {
      const record = {
        requestHash: key.requestHash ?? '',
        firstPage: first,
        pageCount: builder.pages,
        issueCount: builder.issues,
      };
      await insertPart(trx, scanId, key.key, record, now);
    }
    const stored = { first_page_index: first, pages: builder.pages, issues: builder.issues, replayed: false };
    const after: ScanState = { ...scan, ...totals };
    const status = await statusOf(trx, scanId, total);
    if (total !== null && status.missing.length === 0) {
      completed = await completeOpenScan(ctx, trx, org, after);
      const view = { ...presentOpenScan(after), status: 'complete' as const, expires_at: null };
      return { ...view, shards: status, scan: presentCreatedScan(completed), part: stored };
    }
    return { ...presentOpenScan(after), shards: status, part: stored };
  });
  if (completed) await announceScan(ctx, org, completed);
  return answer;
}

/** A part stored before under the same key: the scan as it is now, nothing added (also once complete). */
async function replayedPart(
  trx: Knex.Transaction,
  scan: ScanState,
  total: number | null,
  earlier: { firstPage: number; pageCount: number; issueCount: number },
) {
  const part = {
    first_page_index: earlier.firstPage,
    pages: earlier.pageCount,
    issues: earlier.issueCount,
    replayed: true,
  };
  const shards = await statusOf(trx, scan.id, total);
  if (scan.status !== 'complete') return { ...presentOpenScan(scan), shards, part };
  const view = { ...presentOpenScan(scan), status: 'complete' as const, expires_at: null };
  return { ...view, shards, scan: presentCreatedScan(scan), part };
}
