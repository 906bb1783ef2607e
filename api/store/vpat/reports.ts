import type { Knex } from 'knex';
import type { ReportStatus, VpatReport } from '../../domain/vpat/report.js';
import { dialectOf } from '../db.js';
import { newestFirst } from '../keyset.js';

interface Row {
  id: string;
  org: string;
  site_id: string;
  scan_id: string;
  status: string;
  edition: string;
  wcag_version: string;
  level: string;
  version: number;
  previous_id: string | null;
  product_name: string | null;
  product_version: string | null;
  undecided: number | null;
  report: string;
  created_at: string;
}

/** A stored report's identity, as a site's list shows it (the report itself is read by id). */
export interface VpatListRecord {
  id: string;
  siteId: string;
  scanId: string;
  status: ReportStatus;
  version: number;
  previousId: string | null;
  edition: string;
  wcagVersion: string;
  level: string;
  productName: string | null;
  productVersion: string | null;
  undecided: number | null;
  createdAt: string;
}

/**
 * Reports are immutable: each version is inserted once, never updated. The caller owns the transaction
 * (a report and its outbox event are written together by the service).
 */
export async function insertReport(
  db: Knex | Knex.Transaction,
  org: string,
  report: VpatReport,
): Promise<void> {
  await db<Row>('vpat_reports').insert({
    id: report.id,
    org,
    site_id: report.siteId,
    scan_id: report.scan_id,
    status: report.status,
    edition: report.edition,
    wcag_version: report.wcag_version,
    level: report.level,
    version: report.version,
    previous_id: report.previous_id,
    product_name: report.product.name,
    product_version: report.product.version,
    undecided: report.summary.undecided,
    // What is newer than a version is read when asked, never stored with it.
    report: JSON.stringify({ ...report, behind: undefined }),
    created_at: report.created_at,
  });
}

/**
 * The version already made from report `id`, if any: versions form one line, never a fork. On
 * PostgreSQL the row of `id` is locked first, so two versions made from it at once queue here and the
 * second sees the first (SQLite has a single writer).
 */
export async function successorOf(
  trx: Knex.Transaction,
  org: string,
  id: string,
): Promise<string | undefined> {
  if (dialectOf(trx) === 'postgres')
    await trx<Row>('vpat_reports').where({ org, id }).forUpdate().first('id');
  const row = await trx<Row>('vpat_reports').where({ org, previous_id: id }).first('id');
  return row?.id;
}

export async function findReport(db: Knex, org: string, id: string): Promise<VpatReport | undefined> {
  const row = await db<Row>('vpat_reports').where({ org, id }).first('report');
  return row ? (JSON.parse(row.report) as VpatReport) : undefined;
}

/** A site's reports, newest first (keyset on created_at, id). */
export async function listReports(
  db: Knex,
  org: string,
  siteId: string,
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<VpatListRecord[]> {
  const q = db<Row>('vpat_reports').where({ org, site_id: siteId });
  newestFirst(q, 'created_at', limit, after && { at: after.createdAt, id: after.id });
  const rows = await q.select(
    'id',
    'site_id',
    'scan_id',
    'status',
    'version',
    'previous_id',
    'edition',
    'wcag_version',
    'level',
    'product_name',
    'product_version',
    'undecided',
    'created_at',
  );
  return rows.map((r) => ({
    id: r.id,
    siteId: r.site_id,
    scanId: r.scan_id,
    status: r.status as ReportStatus,
    version: Number(r.version),
    previousId: r.previous_id,
    edition: r.edition,
    wcagVersion: r.wcag_version,
    level: r.level,
    productName: r.product_name,
    productVersion: r.product_version,
    undecided: r.undecided === null ? null : Number(r.undecided),
    createdAt: r.created_at,
  }));
}
