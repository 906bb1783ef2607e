import { domainErrors } from '../../domain/errors.js';
import { newId, nowIso } from '../../domain/ids.js';
import { ScanBuilder } from '../../domain/scans/builder.js';
import {
  pageLimitError,
  scanSiteId,
  SITE_ID_MISSING,
  type PreparationError,
} from '../../domain/scans/preparation.js';
import {
  scanWaiverLookup,
  type ScanWaiverLookup,
  type WaiverViewPage,
} from '../../domain/waivers/scan-waivers.js';
import { compileWaivers } from '../../../core/waivers/match.js';
import { recordEvent } from '../../outbox/record.js';
import type { ApiContext } from '../../context.js';
import type { ScanPageInput } from '../../domain/scans/input.js';
import type { CreateScanHead } from '../../schemas/scans/scans.js';
import { type ScanRecord } from '../../store/scans/scans.js';
import {
  insertScanRow,
  abandonScanRows,
  addScanRows,
  finishScanRows,
  markScanComplete,
  scanRowWriter,
  updateScanTotals,
} from '../../store/scans/writes.js';
import { type ScanHead } from '../../domain/scans/preparation.js';
import { ensureSite } from '../../store/sites/sites.js';
import { activeWaiversForSite } from '../../store/waivers/waivers.js';
import type { Knex } from 'knex';
import { claimOf, distinctClaims } from '../../../core/claims/deploy-claims.js';
import { LimitError } from '../../domain/access/limits.js';
import { axeRuleCriteria } from '../vpat/axe-rule-coverage.js';
import { reserveOrgPlace } from '../../store/access/org-counts.js';
import { setScanSharding } from '../../store/scans/shards.js';
import { refreshIssueStatistics } from '../../store/scans/statistics.js';
import { queueScanHistory } from '../history/keep.js';

/** The 201 body of POST /scans, which is also the `scan.created` event data. */
export function presentCreatedScan(s: ScanRecord) {
  return {
    id: s.id,
    siteId: s.siteId,
    url: s.url,
    sha: s.sha,
    branch: s.branch,
    created_at: s.createdAt,
    summary: s.summary,
    warnings: s.warnings,
  };
}

/** The answer for a scan still receiving parts. */
export function presentOpenScan(s: ScanRecord & { expiresAt: string | null }) {
  return {
    id: s.id,
    status: 'open' as const,
    siteId: s.siteId,
    url: s.url,
    sha: s.sha,
    branch: s.branch,
    expires_at: s.expiresAt ?? '',
    pages_received: s.pageCount,
    issues_received: s.issueCount,
  };
}

/**
 * The pages of one request, validated one at a time as they are read: a page that breaks the schema
 * throws a DomainError (invalid) when its turn comes, so nothing holds every validated page at once.
 */
export interface PageSource extends Iterable<{ index: number; page: ScanPageInput }> {
  count: number;
  /** False only when no page can be in pa11y form (axe-core's rule list is then not loaded). */
  mayHavePa11y: boolean;
}

let lastCreatedMs = 0;

/**
 * Creation time of a scan, strictly increasing within this process: "the latest scan for a sha" must
 * not depend on the random id when a pipeline submits two scans in the same millisecond.
 */
export function scanCreatedAt(): string {
  lastCreatedMs = Math.max(Date.now(), lastCreatedMs + 1);
  return nowIso(new Date(lastCreatedMs));
}

export function preparationFailure(error: PreparationError): Error {
  const errors = [{ pointer: error.pointer, detail: error.detail }];
  if (error.limit) {
    const detail = `The scan is too large: ${error.pointer.slice(2)} ${error.detail} (limit ${error.limit.name}).`;
    return new LimitError(error.limit.name, error.limit.value, 413, detail, errors);
  }
  return error.status === 413
    ? domainErrors.tooLarge(errors, `The scan is too large: ${error.pointer.slice(2)} ${error.detail}.`)
    : domainErrors.invalid(errors);
}

/**
 * Prepares each page as it comes and hands its rows to the writer: memory holds one batch of rows,
 * not the scan. A page over a limit throws, and the caller's transaction rolls everything back.
 */
export async function storePages(
  trx: Knex.Transaction,
  builder: ScanBuilder,
  scanId: string,
  pages: PageSource,
) {
  const writer = scanRowWriter(trx, scanId);
  try {
    for (const { index, page } of pages) {
      const added = builder.addPage(page, index);
      if (!added.ok) throw preparationFailure(added.error);
      if ('repeated' in added) continue;
      await addScanRows(writer, added.page, added.issues, added.passes);
    }
    await finishScanRows(writer);
  } catch (err) {
    // The statements already queued (a page failed, or one of them) run before the transaction's
    // ROLLBACK, not after it.
    await abandonScanRows(writer);
    throw err;
  }
}

export async function scanBuilder(
  ctx: ApiContext,
  head: ScanHead,
  pages: PageSource,
  start?: { pageIndex: number; issueCount: number; addresses: Iterable<string> },
) {
  // pa11y's axe runner drops axe's tags: the criteria come from the installed axe-core, a large module
  // loaded only when a pa11y page may come.
  const criteriaOfAxeRule = pages.mayHavePa11y ? await axeRuleCriteria() : undefined;
  const from = { pageIndex: 0, issueCount: 0, ...start, engine: head.engine };
  return new ScanBuilder(head.url, head.rulesRun, ctx.config.limits, { criteriaOfAxeRule }, from);
}

export function scanHead(body: CreateScanHead): ScanHead {
  const siteId = scanSiteId(body);
  if (!siteId) {
    throw preparationFailure(SITE_ID_MISSING);
  }
  return {
    siteId,
    url: body.url,
    sha: body.sha ?? null,
    branch: body.branch ?? null,
    engine: body.engine ? { name: body.engine.name, version: body.engine.version ?? null } : null,
    runAttempt: body.run_attempt ?? null,
    scannedAt: body.scanned_at ?? null,
    scope: body.scope ?? 'full',
    rulesRun: body.rules_run ? [...new Set(body.rules_run)].sort() : null,
    claims: distinctClaims((body.claims ?? []).map(claimOf)),
    served: body.served ?? null,
  };
}

export type IngestResult =
  { status: 'complete'; scan: ScanRecord } | { status: 'open'; scan: ReturnType<typeof presentOpenScan> };

/**
 * Stores a scan in one transaction: the site on first use, the scan, its pages and issues as they are
 * prepared, and (for a complete scan) its `scan.created` outbox event. After success everything is
 * there, after any error nothing is. With `complete: false` the scan stays open (invisible) for parts.
 */
export async function ingestScan(
  ctx: ApiContext,
  org: string,
  head: CreateScanHead,
  pages: PageSource,
): Promise<IngestResult> {
  const tooMany = pageLimitError(pages.count, ctx.config.limits);
  if (tooMany) throw preparationFailure(tooMany);
  if (head.shards !== undefined && head.complete !== false) {
    throw domainErrors.invalid([
      { pointer: '#/complete', detail: 'must be false: a sharded scan is sent in parts' },
    ]);
  }
  const scanHeadRow = scanHead(head);
  const builder = await scanBuilder(ctx, scanHeadRow, pages);
  const id = newId('scn');
  const createdAt = scanCreatedAt();
  const open = head.complete === false;
  const expiresAt = open ? nowIso(new Date(Date.now() + ctx.config.openScanTtlMs)) : null;
  const stored = await ctx.db.transaction(async (trx) => {
    await ensureSite(trx, org, scanHeadRow.siteId, createdAt, ctx.config.limits.sitesPerOrg);
    if (open) {
      const limit = { name: 'open_scans_per_org' as const, value: ctx.config.limits.openScansPerOrg };
      await reserveOrgPlace(trx, 'open scans', org, limit);
    }
    await insertScanRow(trx, org, id, scanHeadRow, {
      status: open ? 'open' : 'complete',
      createdAt,
      expiresAt,
    });
    if (head.shards !== undefined) await setScanSharding(trx, id, { group: null, shards: head.shards });
    await storePages(trx, builder, id, pages);
    const totals = {
      pageCount: builder.pages,
      issueCount: builder.issues,
      summary: builder.summary,
      engine: scanHeadRow.engine ?? builder.engine,
      htmlTruncated: builder.truncated,
    };
    if (open) {
      await updateScanTotals(trx, id, totals);
      return undefined;
    }
    const done = { warnings: builder.warnings(), rulesRun: builder.rulesRun(), createdAt };
    const scan = await markScanComplete(trx, id, done, totals);
    await queueScanHistory(trx, scan);
    await recordEvent(
      trx,
      org,
      { type: 'scan.created', data: presentCreatedScan(scan) },
      { publicUrl: ctx.config.publicUrl },
    );
    return scan;
  });
  if (!stored) {
    ctx.logger.info(
      { org, scan_id: id, site_id: scanHeadRow.siteId, pages: builder.pages },
      'scan opened for parts',
    );
    return {
      status: 'open',
      scan: {
        id,
        status: 'open',
        siteId: scanHeadRow.siteId,
        url: scanHeadRow.url,
        sha: scanHeadRow.sha,
        branch: scanHeadRow.branch,
        expires_at: expiresAt!,
        pages_received: builder.pages,
        issues_received: builder.issues,
      },
    };
  }
  await announceScan(ctx, org, stored);
  return { status: 'complete', scan: stored };
}

/** After the commit: the database's statistics where the scan outgrew them, and the log. */
export async function announceScan(ctx: ApiContext, org: string, scan: ScanRecord): Promise<void> {
  try {
    if (await refreshIssueStatistics(ctx.db, scan.issueCount))
      ctx.logger.info({ scan_id: scan.id, issues: scan.issueCount }, 'scan issues analyzed');
  } catch (err) {
    // Reads stay correct, only slower; the scan is committed and must not answer 500.
    ctx.logger.error({ err, scan_id: scan.id }, 'analyzing scan issues failed');
  }
  ctx.logger.info(
    { org, scan_id: scan.id, site_id: scan.siteId, pages: scan.pageCount, issues: scan.issueCount },
    'scan stored',
  );
}

/**
 * Which active waiver covers each issue of a scan, as of now: one query for the site's active waivers,
 * then the gate's matcher per issue in memory. A live view: waivers are created, revoked and expire after
 * the scan, so the same scan can read differently tomorrow; the deploy event is the record of what a
 * gate decision waived.
 */
export async function scanWaivers(
  ctx: ApiContext,
  scan: Pick<ScanRecord, 'org' | 'siteId'>,
  pages: readonly WaiverViewPage[],
): Promise<ScanWaiverLookup> {
  const now = nowIso();
  const active = await activeWaiversForSite(ctx.db, scan.org, scan.siteId, now);
  return scanWaiverLookup(compileWaivers(active, now), pages);
}
