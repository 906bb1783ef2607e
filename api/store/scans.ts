import type { Knex } from 'knex';
import { FINGERPRINT_VERSION } from '../domain/fingerprint.js';
import { isNulFree } from '../domain/text-truncation.js';
import type { Impact, IssueKind } from '../domain/imported-issue.js';
import type { PreparedIssue, PreparedPage, PreparedScan } from '../domain/scan-preparation.js';
import type { ScanSummary, ScanWarning } from '../domain/scan-summary.js';
import { dialectOf, insertInChunks, MAX_ROWS_PER_INSERT } from './db.js';
import { ensureSite } from './sites.js';

/**
 * The scan aggregate: one `scans` row, its pages and its issues. A scan is written in the caller's
 * transaction with batched inserts (≤ 500 rows per statement) and never changed afterwards.
 */

export interface ScanRecord {
  id: string;
  org: string;
  siteId: string;
  url: string;
  sha: string | null;
  branch: string | null;
  engine: { name: string; version: string | null } | null;
  run_attempt: number | null;
  page_count: number;
  issue_count: number;
  summary: ScanSummary;
  warnings: ScanWarning[];
  fingerprint_version: number;
  /** Rule ids that ran, or null when unknown. */
  rules_run: string[] | null;
  created_at: string;
}

/** A stored page as reads return it (its `rules_run` list is read only by the VPAT evidence). */
export type ScanPageRecord = Omit<PreparedPage, 'rules_run'>;

export interface ScanIssueRecord extends PreparedIssue {
  /** Database id; ascending in submission order within a scan. */
  id: number;
}

interface ScanRow {
  id: string;
  org: string;
  site_id: string;
  url: string;
  sha: string | null;
  branch: string | null;
  engine_name: string | null;
  engine_version: string | null;
  run_attempt: number | null;
  page_count: number;
  issue_count: number;
  summary: string;
  warnings: string;
  fingerprint_version: number;
  rules_run: string | null;
  created_at: string;
}

interface PageRow {
  scan_id: string;
  page_index: number;
  url: string;
  normalized_url: string;
  title: string | null;
  final_url: string | null;
  http_status: number | null;
  issue_count: number;
}

interface IssueRow {
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
  fingerprint: string;
}

function scanFromRow(r: ScanRow): ScanRecord {
  return {
    id: r.id,
    org: r.org,
    siteId: r.site_id,
    url: r.url,
    sha: r.sha,
    branch: r.branch,
    engine: r.engine_name ? { name: r.engine_name, version: r.engine_version } : null,
    run_attempt: r.run_attempt,
    page_count: r.page_count,
    issue_count: r.issue_count,
    summary: JSON.parse(r.summary) as ScanSummary,
    warnings: JSON.parse(r.warnings) as ScanWarning[],
    fingerprint_version: r.fingerprint_version,
    rules_run: r.rules_run ? (JSON.parse(r.rules_run) as string[]) : null,
    created_at: r.created_at,
  };
}

function pageFromRow(r: PageRow): ScanPageRecord {
  return {
    index: r.page_index,
    url: r.url,
    normalized_url: r.normalized_url,
    title: r.title,
    final_url: r.final_url,
    http_status: r.http_status,
    issue_count: r.issue_count,
  };
}

export function issueFromRow(r: IssueRow): ScanIssueRecord {
  return {
    id: Number(r.id),
    page_index: r.page_index,
    rule: r.rule,
    impact: r.impact,
    kind: r.kind,
    message: r.message,
    selector: r.selector,
    html: r.html,
    wcag: r.wcag ? r.wcag.split(',') : [],
    help_url: r.help_url,
    source: r.source_path ? { path: r.source_path, line: r.source_line } : null,
    fingerprint: r.fingerprint,
  };
}

/** scan_issues columns in insert order, with their PostgreSQL array types for `unnest`. */
const ISSUE_COLUMNS: Array<[string, 'text' | 'int']> = [
  ['scan_id', 'text'],
  ['page_index', 'int'],
  ['rule', 'text'],
  ['impact', 'text'],
  ['kind', 'text'],
  ['message', 'text'],
  ['selector', 'text'],
  ['html', 'text'],
  ['wcag', 'text'],
  ['help_url', 'text'],
  ['source_path', 'text'],
  ['source_line', 'int'],
  ['fingerprint', 'text'],
];

function issueValues(scanId: string, i: PreparedIssue): Knex.Value[] {
  return [
    scanId,
    i.page_index,
    i.rule,
    i.impact,
    i.kind,
    i.message,
    i.selector,
    i.html,
    i.wcag.length ? i.wcag.join(',') : null,
    i.help_url,
    i.source?.path ?? null,
    i.source?.line ?? null,
    i.fingerprint,
  ];
}

const COLUMN_LIST = ISSUE_COLUMNS.map(([c]) => `"${c}"`).join(', ');
const VALUES_TUPLE = `(${ISSUE_COLUMNS.map(() => '?').join(', ')})`;
const UNNEST_SQL =
  `insert into scan_issues (${COLUMN_LIST}) select * from unnest(` +
  ISSUE_COLUMNS.map(([, type]) => `?::${type}[]`).join(', ') +
  ')';
const PG_ROWS_PER_INSERT = 5000;

/**
 * The issues of a scan, in batches: up to 200,000 rows, so the statements are written by hand rather
 * than by knex's query builder (which spends more time compiling a 500-row insert than SQLite spends
 * running it). SQLite: multi-row VALUES, ≤ 500 rows per statement (its compound-select limit).
 * PostgreSQL: one array parameter per column and `unnest`, 5,000 rows per statement.
 */
async function insertIssues(trx: Knex.Transaction, scanId: string, issues: PreparedIssue[]): Promise<void> {
  if (dialectOf(trx) === 'postgres') {
    for (let start = 0; start < issues.length; start += PG_ROWS_PER_INSERT) {
      const chunk = issues.slice(start, start + PG_ROWS_PER_INSERT);
      const columns: Knex.Value[][] = ISSUE_COLUMNS.map(() => new Array(chunk.length));
      chunk.forEach((issue, r) => issueValues(scanId, issue).forEach((v, c) => (columns[c][r] = v)));
      // Each binding is a whole column (pg sends a JS array as a PostgreSQL array).
      await trx.raw(UNNEST_SQL, columns as unknown as Knex.Value[]);
    }
    return;
  }
  for (let start = 0; start < issues.length; start += MAX_ROWS_PER_INSERT) {
    const chunk = issues.slice(start, start + MAX_ROWS_PER_INSERT);
    const bindings: Knex.Value[] = [];
    for (const issue of chunk) bindings.push(...issueValues(scanId, issue));
    const sql =
      `insert into scan_issues (${COLUMN_LIST}) values ` +
      new Array(chunk.length).fill(VALUES_TUPLE).join(', ');
    await trx.raw(sql, bindings);
  }
}

/**
 * Writes a prepared scan (and its site, on first use) inside `trx`. The caller owns the transaction,
 * so the outbox event can join it.
 */
export async function insertScan(
  trx: Knex.Transaction,
  org: string,
  id: string,
  scan: PreparedScan,
  createdAt: string,
): Promise<ScanRecord> {
  await ensureSite(trx, org, scan.siteId, createdAt);
  const row: ScanRow = {
    id,
    org,
    site_id: scan.siteId,
    url: scan.url,
    sha: scan.sha,
    branch: scan.branch,
    engine_name: scan.engine?.name ?? null,
    engine_version: scan.engine?.version ?? null,
    run_attempt: scan.run_attempt,
    page_count: scan.pages.length,
    issue_count: scan.issues.length,
    summary: JSON.stringify(scan.summary),
    warnings: JSON.stringify(scan.warnings),
    fingerprint_version: FINGERPRINT_VERSION,
    rules_run: scan.rules_run ? JSON.stringify(scan.rules_run) : null,
    created_at: createdAt,
  };
  await trx('scans').insert(row);
  await insertInChunks(
    trx,
    'scan_pages',
    scan.pages.map((p) => ({
      scan_id: id,
      page_index: p.index,
      url: p.url,
      normalized_url: p.normalized_url,
      title: p.title,
      final_url: p.final_url,
      http_status: p.http_status,
      issue_count: p.issue_count,
      // [] (nothing ran) and NULL (unknown) differ.
      rules_run: p.rules_run === null ? null : JSON.stringify(p.rules_run),
    })),
  );
  await insertIssues(trx, id, scan.issues);
  return scanFromRow(row);
}

export async function findScan(db: Knex, org: string, id: string): Promise<ScanRecord | undefined> {
  // No stored id holds U+0000, and PostgreSQL would refuse the query: not found, like any unknown id.
  if (!isNulFree(id)) return undefined;
  const row = await db<ScanRow>('scans').where({ org, id }).first();
  return row ? scanFromRow(row) : undefined;
}

export async function listScanPages(db: Knex, scanId: string): Promise<ScanPageRecord[]> {
  const rows = await db<PageRow>('scan_pages').where({ scan_id: scanId }).orderBy('page_index', 'asc');
  return rows.map(pageFromRow);
}

/**
 * Issues of a scan in submission order, `limit` at a time after issue id `afterId`: lets a reader walk
 * a 200,000-issue scan without holding it in memory.
 */
export async function listScanIssues(
  db: Knex,
  scanId: string,
  limit: number,
  afterId = 0,
): Promise<ScanIssueRecord[]> {
  const rows = await db<IssueRow>('scan_issues')
    .where({ scan_id: scanId })
    .andWhere('id', '>', afterId)
    .orderBy('id', 'asc')
    .limit(limit);
  return rows.map(issueFromRow);
}

/** Every issue of a scan (for the gate and the VPAT; scans are bounded by the issue limit). */
export async function allScanIssues(db: Knex, scanId: string): Promise<ScanIssueRecord[]> {
  const out: ScanIssueRecord[] = [];
  for (let after = 0; ;) {
    const batch = await listScanIssues(db, scanId, 5000, after);
    out.push(...batch);
    if (batch.length < 5000) return out;
    after = batch[batch.length - 1].id;
  }
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
  const q = db<ScanRow>('scans')
    .where({ org })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit);
  if (filter.siteId !== undefined) q.andWhere('site_id', filter.siteId);
  if (filter.sha !== undefined) q.andWhere('sha', filter.sha);
  if (filter.branch !== undefined) q.andWhere('branch', filter.branch);
  if (after) {
    q.andWhere((w) =>
      w
        .where('created_at', '<', after.createdAt)
        .orWhere((o) => o.where('created_at', '=', after.createdAt).andWhere('id', '<', after.id)),
    );
  }
  return (await q).map(scanFromRow);
}

async function latestScanWhere(
  db: Knex,
  where: { org: string; site_id: string; sha?: string; branch?: string },
): Promise<ScanRecord | undefined> {
  const row = await db<ScanRow>('scans')
    .where(where)
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

/** The latest scan of a site on a branch (a VPAT's default evidence: the base branch). */
export async function latestScanOnBranch(
  db: Knex,
  org: string,
  siteId: string,
  branch: string,
): Promise<ScanRecord | undefined> {
  return latestScanWhere(db, { org, site_id: siteId, branch });
}
