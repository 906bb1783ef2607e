import type { Knex } from 'knex';
import { FINGERPRINT_VERSION } from '../../../core/matching/fingerprint.js';
import type { PreparedIssue, PreparedPage, PreparedPass, ScanHead } from '../../domain/scans/preparation.js';
import { passesInsert, PASSES_PER_INSERT } from './passes.js';
import { emptySummary, type ScanSummary, type ScanWarning } from '../../domain/scans/summary.js';
import { dialectOf, MAX_ROWS_PER_INSERT } from '../db.js';
import { scanFromRow, type ScanRecord, type ScanRow } from './scans.js';
import { writeGateColumns } from './gate-columns.js';
import { pagesSql, pushPageValues } from './page-rows.js';
import { SqliteInsertQueue } from './sqlite-queue.js';
import { nextTurn } from '../../domain/turns.js';

/**
 * Writing the scan aggregate: the `scans` row first, then pages and issues as they are prepared (in
 * batches, one statement in flight while the next batch is prepared), then the totals. All of it in
 * the caller's transaction, so the outbox event can join it.
 */

export interface ScanTotals {
  pageCount: number;
  issueCount: number;
  summary: ScanSummary;
  engine: ScanHead['engine'];
  htmlTruncated: number;
}

export async function insertScanRow(
  trx: Knex.Transaction,
  org: string,
  id: string,
  head: ScanHead,
  state: { status: 'open' | 'complete'; createdAt: string; expiresAt: string | null },
): Promise<void> {
  const row: ScanRow = {
    id,
    org,
    site_id: head.siteId,
    url: head.url,
    sha: head.sha,
    branch: head.branch,
    engine_name: head.engine?.name ?? null,
    engine_version: head.engine?.version ?? null,
    run_attempt: head.runAttempt,
    scanned_at: head.scannedAt ?? null,
    scope: head.scope,
    page_count: 0,
    issue_count: 0,
    summary: JSON.stringify(emptySummary()),
    warnings: '[]',
    fingerprint_version: FINGERPRINT_VERSION,
    rules_run: head.rulesRun ? JSON.stringify(head.rulesRun) : null,
    created_at: state.createdAt,
    status: state.status,
    expires_at: state.expiresAt,
    html_truncated: 0,
  };
  await trx('scans').insert({
    ...row,
    claims: head.claims?.length ? JSON.stringify(head.claims) : null,
    served: head.served ? JSON.stringify(head.served) : null,
  });
}

/** Stores the totals of a scan still open (after each of its parts). */
export async function updateScanTotals(trx: Knex.Transaction, id: string, totals: ScanTotals): Promise<void> {
  await trx('scans').where({ id }).update(totalsColumns(totals));
}

function totalsColumns(totals: ScanTotals) {
  return {
    page_count: totals.pageCount,
    issue_count: totals.issueCount,
    summary: JSON.stringify(totals.summary),
    engine_name: totals.engine?.name ?? null,
    engine_version: totals.engine?.version ?? null,
    html_truncated: totals.htmlTruncated,
  };
}

/**
 * Makes a scan visible: its final warnings, rules and creation time (the order of "the latest scan"),
 * and its totals when they were not written yet (a scan sent whole), in one statement that returns it;
 * and stores the deploy gate's columns of its issues, now that they are all written.
 */
export async function markScanComplete(
  trx: Knex.Transaction,
  id: string,
  done: { warnings: ScanWarning[]; rulesRun: string[] | null; createdAt: string },
  totals?: ScanTotals,
): Promise<ScanRecord> {
  const [row] = await trx<ScanRow>('scans')
    .where({ id })
    .update({
      ...(totals ? totalsColumns(totals) : {}),
      status: 'complete',
      expires_at: null,
      warnings: JSON.stringify(done.warnings),
      rules_run: done.rulesRun ? JSON.stringify(done.rulesRun) : null,
      created_at: done.createdAt,
    })
    .returning('*');
  await writeGateColumns(trx, id);
  return scanFromRow(row);
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
  ['source_column', 'int'],
  ['source_method', 'text'],
  ['fingerprint', 'text'],
];

const COLUMN_LIST = ISSUE_COLUMNS.map(([c]) => `"${c}"`).join(', ');
const VALUES_TUPLE = `(${ISSUE_COLUMNS.map(() => '?').join(', ')})`;
const UNNEST_SQL =
  `insert into scan_issues (${COLUMN_LIST}) select * from unnest(` +
  ISSUE_COLUMNS.map(([, type]) => `?::${type}[]`).join(', ') +
  ')';
/**
 * Rows per PostgreSQL statement. Larger batches cost the same CPU per scan but keep more rows (and their
 * array parameters) alive, one batch in flight and one being prepared, and raise the peak memory of an
 * ingest (bench/README.md, "Figures behind the code").
 */
const PG_ROWS_PER_INSERT = 500;

/** Pushes one issue's values in ISSUE_COLUMNS order. */
function pushIssueValues(out: Knex.Value[], scanId: string, i: PreparedIssue): void {
  out.push(
    scanId,
    i.pageIndex,
    i.rule,
    i.impact,
    i.kind,
    i.message,
    i.selector,
    i.html,
    i.wcag.length ? i.wcag.join(',') : null,
    i.helpUrl,
    i.source?.path ?? null,
    i.source?.line ?? null,
    i.source?.column ?? null,
    i.source?.method ?? null,
    i.fingerprint,
  );
}

/** The SQLite statement for `rows` issues (the full-batch one is built once). */
const valuesSql = (rows: number) =>
  `insert into scan_issues (${COLUMN_LIST}) values ` + new Array(rows).fill(VALUES_TUPLE).join(', ');
/**
 * Issues per SQLite statement: as fast as 500 (its compound-select limit) with runs queued, and a
 * batch's rows die young, which keeps an ingest's peak memory lower (bench/README.md).
 */
const SQLITE_ISSUES = 100;
const FULL_BATCH_SQL = valuesSql(SQLITE_ISSUES);

/**
 * PostgreSQL: one batch of issues in one statement, one array parameter per column and `unnest`,
 * ≤ 500 rows (knex's query builder spends more time compiling a 500-row insert than the database
 * spends running it).
 */
async function insertPgIssueBatch(trx: Knex.Transaction, scanId: string, issues: PreparedIssue[]) {
  if (issues.length === 0) return;
  const columns = ISSUE_COLUMNS.map(() => new Array<Knex.Value>(issues.length));
  const row: Knex.Value[] = [];
  issues.forEach((issue, r) => {
    row.length = 0;
    pushIssueValues(row, scanId, issue);
    row.forEach((v, c) => {
      columns[c][r] = v;
    });
  });
  // Each binding is a whole column (pg sends a JS array as a PostgreSQL array).
  await trx.raw(UNNEST_SQL, columns as unknown as Knex.Value[]);
}

async function insertPgPageBatch(trx: Knex.Transaction, scanId: string, pages: PreparedPage[]) {
  if (pages.length === 0) return;
  const bindings: Knex.Value[] = [];
  for (const p of pages) pushPageValues(bindings, scanId, p);
  await trx.raw(pagesSql(pages.length), bindings);
}

/**
 * Buffers prepared pages and their issues and writes them a batch at a time while the caller
 * prepares the next. SQLite: multi-row VALUES written by hand (issues 100 rows a statement, pages
 * 500: its compound-select limit), queued on the transaction's connection (sqlite-queue.ts); pages and issues are separate
 * statements, all written before the totals. PostgreSQL: one batch in flight, its pages first.
 */
export interface ScanRowWriter {
  readonly trx: Knex.Transaction;
  readonly scanId: string;
  readonly issueBatch: number;
  pages: PreparedPage[];
  issues: PreparedIssue[];
  passes: PreparedPass[];
  inflight: Promise<void> | undefined;
  /** SQLite only. */
  readonly queue: SqliteInsertQueue | undefined;
}

export function scanRowWriter(trx: Knex.Transaction, scanId: string): ScanRowWriter {
  const postgres = dialectOf(trx) === 'postgres';
  const issueBatch = postgres ? PG_ROWS_PER_INSERT : SQLITE_ISSUES;
  const queue = postgres ? undefined : new SqliteInsertQueue(trx);
  return { trx, scanId, issueBatch, pages: [], issues: [], passes: [], inflight: undefined, queue };
}

export async function addScanRows(
  w: ScanRowWriter,
  page: PreparedPage,
  issues: PreparedIssue[],
  passes: readonly PreparedPass[] = [],
): Promise<void> {
  w.pages.push(page);
  w.passes.push(...passes);
  for (const issue of issues) {
    w.issues.push(issue);
    if (w.issues.length >= w.issueBatch) await flushScanRows(w, false);
  }
  // SQLite caps bound variables (32,766): 500 pages × 9 columns stays below it.
  if (w.pages.length >= MAX_ROWS_PER_INSERT) await flushScanRows(w, false);
}

/** Writes what is left and waits for every statement. */
export async function finishScanRows(w: ScanRowWriter): Promise<void> {
  await flushScanRows(w, true);
  await w.inflight;
  await w.queue?.close();
}

/**
 * After a failure: waits for the statements already queued, so the caller's ROLLBACK comes after
 * them (their own errors are the first error's consequence).
 */
export async function abandonScanRows(w: ScanRowWriter): Promise<void> {
  await Promise.allSettled([w.inflight, w.queue?.close()]);
}

async function flushScanRows(w: ScanRowWriter, final: boolean): Promise<void> {
  if (w.queue) return flushSqlite(w, w.queue, final);
  const { pages, issues, passes } = w;
  w.pages = [];
  w.issues = [];
  w.passes = [];
  if (pages.length === 0 && issues.length === 0 && passes.length === 0) return;
  await w.inflight;
  // Pages first: an issue row's page is then always there, whatever is read inside the transaction.
  const inflight = insertPgPageBatch(w.trx, w.scanId, pages)
    .then(() => insertPgIssueBatch(w.trx, w.scanId, issues))
    .then(async () => {
      for (let i = 0; i < passes.length; i += PASSES_PER_INSERT) {
        const { sql, bindings } = passesInsert(w.scanId, passes.slice(i, i + PASSES_PER_INSERT));
        await w.trx.raw(sql, bindings);
      }
    });
  w.inflight = inflight;
  // Handled when awaited; this only stops it from counting as unhandled in between.
  inflight.catch(() => undefined);
  // Lets the driver take the statement before the caller goes on preparing (else nothing overlaps).
  await nextTurn();
}

/** Full batches of issues or pages (and what is left, at the end), each run queued in order. */
async function flushSqlite(w: ScanRowWriter, queue: SqliteInsertQueue, final: boolean): Promise<void> {
  if (w.issues.length >= SQLITE_ISSUES || (final && w.issues.length > 0)) {
    const issues = w.issues;
    w.issues = [];
    const bindings: Knex.Value[] = [];
    for (const issue of issues) pushIssueValues(bindings, w.scanId, issue);
    const sql = issues.length === SQLITE_ISSUES ? FULL_BATCH_SQL : valuesSql(issues.length);
    await queue.run(sql, bindings);
  }
  if (w.pages.length >= MAX_ROWS_PER_INSERT || (final && w.pages.length > 0)) {
    const pages = w.pages;
    w.pages = [];
    const bindings: Knex.Value[] = [];
    for (const p of pages) pushPageValues(bindings, w.scanId, p);
    await queue.run(pagesSql(pages.length), bindings);
  }
  // Passing elements at the end only: few scans send them, and their rows are small.
  while (final && w.passes.length > 0) {
    const { sql, bindings } = passesInsert(w.scanId, w.passes.splice(0, PASSES_PER_INSERT));
    await queue.run(sql, bindings);
  }
}
