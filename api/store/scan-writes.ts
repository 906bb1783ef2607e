import type { Knex } from 'knex';
import { FINGERPRINT_VERSION } from '../domain/fingerprint.js';
import type { PreparedIssue, PreparedPage, ScanHead } from '../domain/scan-preparation.js';
import { emptySummary, type ScanSummary, type ScanWarning } from '../domain/scan-summary.js';
import { dialectOf, MAX_ROWS_PER_INSERT } from './db.js';
import { scanFromRow, type ScanRecord, type ScanRow } from './scans.js';

/**
 * Writing the scan aggregate: the `scans` row first, then pages and issues as they are prepared (in
 * batches, one statement in flight while the next batch is prepared), then the totals. All of it in
 * the caller's transaction, so the outbox event can join it.
 */

export type { ScanHead };

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
  await trx('scans').insert(row);
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
 * and its totals when they were not written yet (a scan sent whole), in one statement that returns it.
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
  ['fingerprint', 'text'],
];

const COLUMN_LIST = ISSUE_COLUMNS.map(([c]) => `"${c}"`).join(', ');
const VALUES_TUPLE = `(${ISSUE_COLUMNS.map(() => '?').join(', ')})`;
const UNNEST_SQL =
  `insert into scan_issues (${COLUMN_LIST}) select * from unnest(` +
  ISSUE_COLUMNS.map(([, type]) => `?::${type}[]`).join(', ') +
  ')';
/**
 * Rows per PostgreSQL statement. 5,000 cost the same CPU per scan as 500 but kept ten times the rows
 * (and their array parameters) alive, one batch in flight and one being prepared: a 24.7 MB scan
 * grew the server's peak RSS by 97 MB (3.9× the body) against 67 MB (2.7×) with 500.
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
    i.fingerprint,
  );
}

/** The SQLite statement for `rows` issues (the full-batch one is built once). */
const valuesSql = (rows: number) =>
  `insert into scan_issues (${COLUMN_LIST}) values ` + new Array(rows).fill(VALUES_TUPLE).join(', ');
const FULL_BATCH_SQL = valuesSql(MAX_ROWS_PER_INSERT);

interface SqliteRunner {
  run(sql: string, bindings: Knex.Value[], cb: (err: Error | null) => void): void;
}

/**
 * Runs one statement on the transaction's own SQLite connection: knex's raw formatting scans the
 * SQL for its 6,500 placeholders and checks every binding (about 5 % of an ingest's CPU), and
 * `run` builds no result rows. The transaction client always hands out its one connection.
 */
async function runOnTransaction(trx: Knex.Transaction, sql: string, bindings: Knex.Value[]): Promise<void> {
  const client = trx.client as { acquireConnection(): Promise<SqliteRunner> };
  const conn = await client.acquireConnection();
  // As knex does: once the transaction has issued its ROLLBACK (a page failed meanwhile), a batch
  // still to come must not run on the connection, where it would commit on its own.
  if (trx.isCompleted()) throw new Error('Transaction query already complete');
  await new Promise<void>((resolve, reject) => {
    conn.run(sql, bindings, (err) => {
      if (err) reject(err);
      else resolve();
    });
  });
}

/**
 * One batch of issues in one statement, written by hand rather than by knex's query builder (which
 * spends more time compiling a 500-row insert than SQLite spends running it). SQLite: multi-row
 * VALUES, ≤ 500 rows (its compound-select limit). PostgreSQL: one array parameter per column and
 * `unnest`, ≤ 500 rows.
 */
async function insertIssueBatch(
  trx: Knex.Transaction,
  scanId: string,
  issues: PreparedIssue[],
): Promise<void> {
  if (issues.length === 0) return;
  if (dialectOf(trx) === 'postgres') {
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
    return;
  }
  const bindings: Knex.Value[] = [];
  for (const issue of issues) pushIssueValues(bindings, scanId, issue);
  const sql = issues.length === MAX_ROWS_PER_INSERT ? FULL_BATCH_SQL : valuesSql(issues.length);
  await runOnTransaction(trx, sql, bindings);
}

async function insertPageBatch(trx: Knex.Transaction, scanId: string, pages: PreparedPage[]): Promise<void> {
  if (pages.length === 0) return;
  await trx('scan_pages').insert(
    pages.map((p) => ({
      scan_id: scanId,
      page_index: p.index,
      url: p.url,
      normalized_url: p.normalizedUrl,
      title: p.title,
      final_url: p.finalUrl,
      http_status: p.httpStatus,
      issue_count: p.issueCount,
      // [] (nothing ran) and NULL (unknown) differ.
      rules_run: p.rulesRun === null ? null : JSON.stringify(p.rulesRun),
    })),
  );
}

/**
 * Buffers prepared pages and their issues and writes them a batch at a time. One batch is in flight
 * while the caller prepares the next: the driver runs SQLite statements on a worker thread and
 * PostgreSQL runs them in its own process, so preparing and inserting overlap.
 */
export interface ScanRowWriter {
  readonly trx: Knex.Transaction;
  readonly scanId: string;
  readonly issueBatch: number;
  pages: PreparedPage[];
  issues: PreparedIssue[];
  inflight: Promise<void> | undefined;
}

export function scanRowWriter(trx: Knex.Transaction, scanId: string): ScanRowWriter {
  const issueBatch = dialectOf(trx) === 'postgres' ? PG_ROWS_PER_INSERT : MAX_ROWS_PER_INSERT;
  return { trx, scanId, issueBatch, pages: [], issues: [], inflight: undefined };
}

export async function addScanRows(
  w: ScanRowWriter,
  page: PreparedPage,
  issues: PreparedIssue[],
): Promise<void> {
  w.pages.push(page);
  for (const issue of issues) {
    w.issues.push(issue);
    if (w.issues.length >= w.issueBatch) await flushScanRows(w);
  }
  // SQLite caps bound variables (32,766): 500 pages × 10 columns stays below it.
  if (w.pages.length >= MAX_ROWS_PER_INSERT) await flushScanRows(w);
}

/** Writes what is left and waits for every statement. */
export async function finishScanRows(w: ScanRowWriter): Promise<void> {
  await flushScanRows(w);
  await w.inflight;
}

async function flushScanRows(w: ScanRowWriter): Promise<void> {
  const { pages, issues } = w;
  w.pages = [];
  w.issues = [];
  if (pages.length === 0 && issues.length === 0) return;
  await w.inflight;
  // Pages first: an issue row's page is then always there, whatever is read inside the transaction.
  const inflight = insertPageBatch(w.trx, w.scanId, pages).then(() =>
    insertIssueBatch(w.trx, w.scanId, issues),
  );
  w.inflight = inflight;
  // Handled when awaited; this only stops it from counting as unhandled in between.
  inflight.catch(() => undefined);
  // Lets the driver take the statement before the caller goes on preparing (else nothing overlaps).
  await new Promise<void>((resolve) => setImmediate(resolve));
}
