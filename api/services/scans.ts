import { newId, nowIso } from '../domain/ids.js';
import { scanWaiverLookup, type ScanWaiverLookup, type WaiverViewPage } from '../domain/scan-waivers.js';
import { compileWaivers } from '../domain/waiver-match.js';
import { prepareScan, type PreparationError } from '../domain/scan-preparation.js';
import { recordEvent } from '../events/outbox.js';
import type { ApiContext } from '../context.js';
import type { CreateScanBody } from '../schemas/scans.js';
import { insertScan, type ScanRecord } from '../store/scans.js';
import { WaiverRepository } from '../store/waivers.js';
import { axeRuleCriteria } from './axe-rule-coverage.js';

/** The 201 body of POST /scans, which is also the `scan.created` event data. */
export function presentCreatedScan(s: ScanRecord) {
  return {
    id: s.id,
    siteId: s.siteId,
    url: s.url,
    sha: s.sha,
    branch: s.branch,
    created_at: s.created_at,
    summary: s.summary,
    warnings: s.warnings,
  };
}

let lastCreatedMs = 0;

/**
 * Creation time of a scan, strictly increasing within this process: "the latest scan for a sha" must
 * not depend on the random id when a pipeline submits two scans in the same millisecond.
 */
function scanCreatedAt(): string {
  lastCreatedMs = Math.max(Date.now(), lastCreatedMs + 1);
  return nowIso(new Date(lastCreatedMs));
}

export type IngestResult = { ok: true; scan: ScanRecord } | { ok: false; error: PreparationError };

/**
 * Prepares and stores a scan in one transaction together with its `scan.created` outbox event: after
 * success everything is there, after any error nothing is.
 */
export async function ingestScan(ctx: ApiContext, org: string, body: CreateScanBody): Promise<IngestResult> {
  const criteriaOfAxeRule = body.pages.some((p) => p.pa11y) ? await axeRuleCriteria() : undefined;
  const prepared = prepareScan(body, ctx.config.limits, { criteriaOfAxeRule });
  if (!prepared.ok) return prepared;
  const id = newId('scn');
  const createdAt = scanCreatedAt();
  const scan = await ctx.db.transaction(async (trx) => {
    const stored = await insertScan(trx, org, id, prepared.scan, createdAt);
    await recordEvent(trx, { org, type: 'scan.created', data: presentCreatedScan(stored) });
    return stored;
  });
  try {
    ctx.events.emit('scan.created', { org, scan: presentCreatedScan(scan) });
  } catch (err) {
    // The scan is committed: a failing in-process listener must not answer 500 (a CI retry without
    // Idempotency-Key would then store the scan twice).
    ctx.logger.error({ err, scan_id: id }, 'a scan.created listener failed');
  }
  ctx.logger.info(
    { org, scan_id: id, site_id: scan.siteId, pages: scan.page_count, issues: scan.issue_count },
    'scan stored',
  );
  return { ok: true, scan };
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
  const active = await new WaiverRepository(ctx.db).activeForSite(scan.org, scan.siteId, now);
  return scanWaiverLookup(compileWaivers(active, now), pages);
}
