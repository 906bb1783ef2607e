import type { Knex } from 'knex';
import { isNulFree } from '../../../core/text/truncation.js';
import type {
  AccessibilityStatement,
  ComplianceStatus,
  StatementStatus,
} from '../../domain/statement/statement.js';
import { newestFirst } from '../keyset.js';

/**
 * Statements: one row per version of a site's statement, the document as JSON beside the columns lists and
 * the review-due sweep read. A draft is rewritten in place while people answer; a final version is never
 * written again (every write is conditional on `status = 'draft'`). The caller owns the transaction.
 */

interface Row {
  id: string;
  org: string;
  site_id: string;
  version: number | string;
  previous_id: string | null;
  status: string;
  report_id: string;
  compliance: string;
  missing: number | string;
  published_by: string | null;
  published_at: string | null;
  next_review_on: string | null;
  review_due_event_at: string | null;
  statement: string;
  created_at: string;
  updated_at: string;
}

/** A statement version as a site's list shows it (the statement itself is read by id). */
export interface StatementListRecord {
  id: string;
  siteId: string;
  version: number;
  previousId: string | null;
  status: StatementStatus;
  reportId: string;
  compliance: ComplianceStatus;
  missing: number;
  published: { by: string; at: string } | null;
  nextReviewOn: string | null;
  createdAt: string;
  updatedAt: string;
}

function columns(s: AccessibilityStatement) {
  return {
    status: s.status,
    report_id: s.preparation.evidence.report.id,
    compliance: s.compliance.status,
    missing: s.missing.length,
    published_by: s.published?.by ?? null,
    published_at: s.published?.at ?? null,
    next_review_on: s.status === 'final' ? s.preparation.next_review_on : null,
    statement: JSON.stringify(s),
    updated_at: s.updated_at,
  };
}

/** Inserts a new version; a second version with the same number (a race) fails on the unique key. */
export async function insertStatement(
  db: Knex | Knex.Transaction,
  org: string,
  s: AccessibilityStatement,
): Promise<void> {
  await db('statements').insert({
    id: s.id,
    org,
    site_id: s.siteId,
    version: s.version,
    previous_id: s.previous_id,
    review_due_event_at: null,
    created_at: s.created_at,
    ...columns(s),
  });
}

/**
 * Writes a draft's new state (new answers, evidence read again, or its publication). False when the row
 * is no longer a draft (published meanwhile) or is not there: a final statement is never written again.
 */
export async function writeDraft(
  db: Knex | Knex.Transaction,
  org: string,
  s: AccessibilityStatement,
): Promise<boolean> {
  const n = await db('statements').where({ org, id: s.id, status: 'draft' }).update(columns(s));
  return n === 1;
}

export async function findStatement(
  db: Knex | Knex.Transaction,
  org: string,
  id: string,
): Promise<AccessibilityStatement | undefined> {
  if (!isNulFree(id)) return undefined;
  const row = await db('statements')
    .where({ org, id })
    .first<Pick<Row, 'statement'> | undefined>('statement');
  return row ? (JSON.parse(row.statement) as AccessibilityStatement) : undefined;
}

/** The site's newest version (the one a new version starts from). */
export async function latestStatement(
  db: Knex | Knex.Transaction,
  org: string,
  siteId: string,
): Promise<AccessibilityStatement | undefined> {
  const row = await db('statements')
    .where({ org, site_id: siteId })
    .orderBy('version', 'desc')
    .first<Pick<Row, 'statement'> | undefined>('statement');
  return row ? (JSON.parse(row.statement) as AccessibilityStatement) : undefined;
}

const LIST_COLUMNS = [
  'id',
  'site_id',
  'version',
  'previous_id',
  'status',
  'report_id',
  'compliance',
  'missing',
  'published_by',
  'published_at',
  'next_review_on',
  'created_at',
  'updated_at',
] as const;

/** A site's statement versions, newest first (keyset on created_at, id). */
export async function listStatements(
  db: Knex,
  org: string,
  siteId: string,
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<StatementListRecord[]> {
  const q = db('statements').where({ org, site_id: siteId });
  newestFirst(q, 'created_at', limit, after && { at: after.createdAt, id: after.id });
  const rows = await q.select<Array<Omit<Row, 'org' | 'statement' | 'review_due_event_at'>>>(...LIST_COLUMNS);
  return rows.map((r) => ({
    id: r.id,
    siteId: r.site_id,
    version: Number(r.version),
    previousId: r.previous_id,
    status: r.status as StatementStatus,
    reportId: r.report_id,
    compliance: r.compliance as ComplianceStatus,
    missing: Number(r.missing),
    published: r.published_by && r.published_at ? { by: r.published_by, at: r.published_at } : null,
    nextReviewOn: r.next_review_on,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}
