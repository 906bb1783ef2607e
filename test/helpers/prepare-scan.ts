import { ScanBuilder } from '../../api/domain/scans/builder.js';
import {
  pageLimitError,
  scanSiteId,
  SITE_ID_MISSING,
  type PreparationError,
  type PreparationOptions,
  type PreparedIssue,
  type PreparedPage,
  type ScanHead,
  type ScanLimits,
} from '../../api/domain/scans/preparation.js';
import type { ScanSummary, ScanWarning } from '../../api/domain/scans/summary.js';
import type { CreateScanBody } from '../../api/schemas/scans/scans.js';

export interface PreparedScan extends ScanHead {
  pages: PreparedPage[];
  issues: PreparedIssue[];
  summary: ScanSummary;
  warnings: ScanWarning[];
}

export type Preparation = { ok: true; scan: PreparedScan } | { ok: false; error: PreparationError };

/**
 * A whole scan body prepared in memory, from the same domain pieces the scan service composes page by page
 * (limits, the site, the ScanBuilder): the domain's preparation, tested without a database.
 */
export function prepareScan(
  body: CreateScanBody,
  limits: ScanLimits,
  options: PreparationOptions = {},
): Preparation {
  const tooMany = pageLimitError(body.pages.length, limits);
  if (tooMany) return { ok: false, error: tooMany };
  const siteId = scanSiteId(body);
  if (!siteId) return { ok: false, error: SITE_ID_MISSING };
  const declared = body.engine ? { name: body.engine.name, version: body.engine.version ?? null } : null;
  const builder = new ScanBuilder(body.url, body.rules_run, limits, options, {
    pageIndex: 0,
    issueCount: 0,
    engine: declared,
  });
  const pages: PreparedPage[] = [];
  const issues: PreparedIssue[] = [];
  for (let index = 0; index < body.pages.length; index++) {
    const added = builder.addPage(body.pages[index], index);
    if (!added.ok) return added;
    if ('repeated' in added) continue;
    pages.push(added.page);
    for (const issue of added.issues) issues.push(issue);
  }
  const engine = declared ?? builder.engine;
  return {
    ok: true,
    scan: {
      siteId,
      url: body.url,
      sha: body.sha ?? null,
      branch: body.branch ?? null,
      engine,
      runAttempt: body.run_attempt ?? null,
      scope: body.scope ?? 'full',
      rulesRun: builder.rulesRun(),
      pages,
      issues,
      summary: builder.summary,
      warnings: builder.warnings(),
    },
  };
}
