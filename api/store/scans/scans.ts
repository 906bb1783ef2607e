import type { ServedFolderRef } from '../../../core/gate/served-folder.js';
import type { Knex } from 'knex';
import { isNulFree } from '../../../core/text/truncation.js';
import type { Impact } from '../../../core/impact.js';
import { type IssueKind } from '../../../core/impact.js';
import type { PreparedIssue, PreparedPage } from '../../domain/scans/preparation.js';
import type { IssueSource, SourceMethod } from '../../../core/scans/imported-issue.js';
import type { ScanSummary, ScanWarning } from '../../domain/scans/summary.js';
import { newestFirst } from '../keyset.js';
import type { ScanScope } from '../../../core/gate/coverage.js';
import { scanPageRows } from './page-rows.js';

/**
 * The scan aggregate: one `scans` row, its pages and its issues (written by writes.ts). Reads here
 * see complete scans only: a scan sent in parts is invisible until its completion.
 */

export interface ScanRecord {
  id: string;
  org: string;
  siteId: string;
  url: string;
  sha: string | null;
  branch: string | null;
  engine: { name: string; version: string | null } | null;
  runAttempt: number | null;
  /** `partial`: the scan covers only its pages. */
  scope: ScanScope;
  pageCount: number;
  issueCount: number;
  summary: ScanSummary;
  warnings: ScanWarning[];
  fingerprintVersion: number;
  /** Rule ids that ran, or null when unknown. */
  rulesRun: string[] | null;
  createdAt: string;
  /** When the pages were scanned as the body said; null: at `createdAt`. */
  scannedAt: string | null;
  /** The built folder the CLI served for the scan (`--serve`), or null. */
  served: ServedFolderRef | null;
}

/** A stored page as reads return it (its rule lists are read only by the VPAT evidence). */
export type ScanPageRecord = Omit<PreparedPage, 'rulesRun' | 'rulesInapplicable'>;

export interface ScanIssueRecord extends PreparedIssue {
  /** Database id; ascending in submission order within a scan. */
  id: number;
}

export interface ScanRow {
  id: string;
  org: string;
  site_id: string;
  url: string;
  sha: string | null;
  branch: string | null;
  engine_name: string | null;
  engine_version: string | null;
  run_attempt: number | null;
  scanned_at?: string | null;
  /** Rows written before scans said what they cover read as full. */
  scope?: ScanScope | null;
  page_count: number;
  issue_count: number;
  summary: string;
  warnings: string;
  fingerprint_version: number;
  rules_run: string | null;
  /** JSON of the served folder, or null (and absent from rows written before it was kept). */
  served?: string | null;
  created_at: string;
  /** `open` while a scan sent in parts is still receiving them; every read below wants `complete`. */
  status?: 'open' | 'complete' | 'deleted';
  expires_at?: string | null;
  html_truncated?: number;
}

interface PageRow {
  scan_id: string;
  page_index: number;
  url: string;
  viewport: string | null;
  normalized_url: string;
  title: string | null;
  final_url: string | null;
  http_status: number | null;
  issue_count: number;
}

export interface IssueRow {
  id: number;
  scan_id: string;
  page_index: number;
  rule: string;
  impact: Impact | null;
  kind: IssueKind;
  message: string | null;
  selector: string | null;
  html: string | null;
  wcag: string | null;
  help_url: string | null;
  source_path: string | null;
  source_line: number | null;
  source_column: number | null;
  source_method: SourceMethod | null;
  fingerprint: string;
}

export function scanFromRow(r: ScanRow): ScanRecord {
  return {
    id: r.id,
    org: r.org,
    siteId: r.site_id,
    url: r.url,
    sha: r.sha,
    branch: r.branch,
    engine: r.engine_name ? { name: r.engine_name, version: r.engine_version } : null,
    runAttempt: r.run_attempt,
    scope: r.scope ?? 'full',
    pageCount: r.page_count,
    issueCount: r.issue_count,
    summary: JSON.parse(r.summary) as ScanSummary,
    warnings: JSON.parse(r.warnings) as ScanWarning[],
    fingerprintVersion: r.fingerprint_version,
    rulesRun: r.rules_run ? (JSON.parse(r.rules_run) as string[]) : null,
    createdAt: r.created_at,
    scannedAt: r.scanned_at ?? null,
    served: r.served ? (JSON.parse(r.served) as ServedFolderRef) : null,
  };
}

function pageFromRow(r: PageRow): ScanPageRecord {
  return {
    index: r.page_index,
    url: r.url,
    viewport: r.viewport,
    normalizedUrl: r.normalized_url,
    title: r.title,
    finalUrl: r.final_url,
    httpStatus: r.http_status,
    issueCount: r.issue_count,
  };
}

/** An issue's location from its four columns (older rows have neither column nor method). */
export function sourceFromColumns(r: {
  source_path: string | null;
  source_line: number | string | null;
  source_column?: number | string | null;
  source_method?: string | null;
}): IssueSource | null {
  if (!r.source_path) return null;
  const num = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));
  const method = r.source_method === 'attribute' || r.source_method === 'static' ? r.source_method : null;
  return { path: r.source_path, line: num(r.source_line), column: num(r.source_column), method };
}

export function issueFromRow(r: IssueRow): ScanIssueRecord {
  return {
    id: Number(r.id),
    pageIndex: r.page_index,
    rule: r.rule,
    impact: r.impact,
    kind: r.kind,
    message: r.message,
    selector: r.selector,
    html: r.html,
    wcag: r.wcag ? r.wcag.split(',') : [],
    helpUrl: r.help_url,
    source: sourceFromColumns(r),
    fingerprint: r.fingerprint,
  };
}

export async function findScan(db: Knex, org: string, id: string): Promise<ScanRecord | undefined> {
  // No stored id holds U+0000, and PostgreSQL would refuse the query: not found, like any unknown id.
  if (!isNulFree(id)) return undefined;
  const row = await db<ScanRow>('scans').where({ org, id, status: 'complete' }).first();
  return row ? scanFromRow(row) : undefined;
}

export async function listScanPages(db: Knex, scanId: string): Promise<ScanPageRecord[]> {
  const pages: ScanPageRecord[] = [];
  for await (const rows of scanPageRows<PageRow>(db, scanId, '*'))
    for (const r of rows) pages.push(pageFromRow(r));
  return pages;
}

export interface ScanFilter {
  siteId?: string;
  sha?: string;
  branch?: string;
}

/** Keyset page of an org's scans, newest first, ordered by (created_at, id) descending. */
export async function listScans(
  db: Knex,
  org: string,
  filter: ScanFilter,
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<ScanRecord[]> {
  const q = db<ScanRow>('scans').where({ org, status: 'complete' });
  if (filter.siteId !== undefined) q.andWhere('site_id', filter.siteId);
  if (filter.sha !== undefined) q.andWhere('sha', filter.sha);
  if (filter.branch !== undefined) q.andWhere('branch', filter.branch);
  newestFirst(q, 'created_at', limit, after && { at: after.createdAt, id: after.id });
  return (await q).map(scanFromRow);
}

async function latestScanWhere(
  db: Knex,
  where: { org: string; site_id: string; sha?: string; branch?: string; scope?: ScanScope },
): Promise<ScanRecord | undefined> {
  const row = await db<ScanRow>('scans')
    .where({ ...where, status: 'complete' })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first();
  return row ? scanFromRow(row) : undefined;
}

/** The latest scan of a site for a commit (the deploy gate's head scan). */
export async function latestScanForSha(
  db: Knex,
  org: string,
  siteId: string,
  sha: string,
): Promise<ScanRecord | undefined> {
  return latestScanWhere(db, { org, site_id: siteId, sha });
}

/**
 * The latest full scan of a site on a branch (a report's, a statement's and a sample's default evidence:
 * the base branch). A partial scan covers some pages only: a report made from it would say the others
 * have no failures.
 */
export async function latestFullScanOnBranch(
  db: Knex,
  org: string,
  siteId: string,
  branch: string,
): Promise<ScanRecord | undefined> {
  return latestScanWhere(db, { org, site_id: siteId, branch, scope: 'full' });
}
