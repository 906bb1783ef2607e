import type { Knex } from 'knex';
import type {
  AssessmentResult,
  Outcome,
  ResultChange,
  ResultState,
} from '../../domain/vpat/assessments/assessment.js';
import { dialectOf, insertJsonRows, isUniqueViolation } from '../db.js';

/**
 * An assessment's results, one per (criterion, page), each with a version that every write raises (the
 * ETag), and the log of every change. `page` '' stands for the whole sample (null in the domain).
 */

interface ResultRow {
  assessment_id: string;
  criterion: string;
  page: string;
  outcome: string;
  notes: string;
  tester: string;
  version: number | string;
  updated_at: string;
}

const toPage = (p: string | null) => p ?? '';
const fromPage = (p: string) => (p === '' ? null : p);

function fromRow(r: ResultRow): AssessmentResult {
  return {
    criterion: r.criterion,
    page: fromPage(r.page),
    outcome: r.outcome as Outcome,
    notes: r.notes,
    tester: r.tester,
    version: Number(r.version),
    updatedAt: r.updated_at,
  };
}

export async function listResults(
  db: Knex | Knex.Transaction,
  assessmentId: string,
  criterion?: string,
): Promise<AssessmentResult[]> {
  const rows = await db('assessment_results')
    .where({ assessment_id: assessmentId })
    .modify((q) => {
      if (criterion) q.andWhere({ criterion });
    })
    .orderBy(['criterion', 'page'])
    .select<ResultRow[]>('*');
  return rows.map(fromRow);
}

/**
 * Holds one result (criterion and page) for the rest of the transaction, before it is read: writers of it
 * take turns, so a write without a condition reads the latest version and wins after it, instead of
 * losing the race for the version it read. SQLite has one writer already.
 */
export async function lockResult(
  trx: Knex.Transaction,
  assessmentId: string,
  criterion: string,
  page: string | null,
): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  const name = `a11y-gate result ${assessmentId}\n${criterion}\n${toPage(page)}`;
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [name]);
}

export async function findResult(
  trx: Knex | Knex.Transaction,
  assessmentId: string,
  criterion: string,
  page: string | null,
): Promise<AssessmentResult | undefined> {
  const row = await trx('assessment_results')
    .where({ assessment_id: assessmentId, criterion, page: toPage(page) })
    .first<ResultRow | undefined>();
  return row ? fromRow(row) : undefined;
}

/**
 * Writes a result if it is still at `expected` (0: it must not exist yet). Returns false when another
 * writer got there first: the caller answers 412 with the current result.
 */
export async function writeResult(
  trx: Knex.Transaction,
  assessmentId: string,
  r: AssessmentResult,
  expected: number,
): Promise<boolean> {
  const values = {
    outcome: r.outcome,
    notes: r.notes,
    tester: r.tester,
    version: r.version,
    updated_at: r.updatedAt,
  };
  if (expected === 0) {
    try {
      await trx('assessment_results').insert({
        assessment_id: assessmentId,
        criterion: r.criterion,
        page: toPage(r.page),
        ...values,
      });
      return true;
    } catch (err) {
      // Another writer created it first (the primary key says so); anything else is a real failure.
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }
  const n = await trx('assessment_results')
    .where({ assessment_id: assessmentId, criterion: r.criterion, page: toPage(r.page), version: expected })
    .update(values);
  return n > 0;
}

export async function insertResults(
  trx: Knex.Transaction,
  assessmentId: string,
  results: readonly AssessmentResult[],
): Promise<void> {
  const rows = results.map((r) => ({
    assessment_id: assessmentId,
    criterion: r.criterion,
    page: toPage(r.page),
    outcome: r.outcome,
    notes: r.notes,
    tester: r.tester,
    version: r.version,
    updated_at: r.updatedAt,
  }));
  await insertJsonRows(trx, 'assessment_results', rows);
}

export async function insertChanges(
  trx: Knex.Transaction,
  assessmentId: string,
  changes: readonly ResultChange[],
): Promise<void> {
  const rows = changes.map((c) => ({
    assessment_id: assessmentId,
    criterion: c.criterion,
    page: toPage(c.page),
    before: c.before === null ? null : JSON.stringify(c.before),
    after: JSON.stringify(c.after),
    changed_by: c.by,
    changed_at: c.at,
  }));
  await insertJsonRows(trx, 'assessment_result_changes', rows);
}

export async function listChanges(
  db: Knex,
  assessmentId: string,
  criterion: string,
): Promise<ResultChange[]> {
  const rows = await db('assessment_result_changes')
    .where({ assessment_id: assessmentId, criterion })
    .orderBy('id')
    .select<
      Array<{
        criterion: string;
        page: string;
        before: string | null;
        after: string;
        changed_by: string;
        changed_at: string;
      }>
    >('criterion', 'page', 'before', 'after', 'changed_by', 'changed_at');
  return rows.map((r) => ({
    criterion: r.criterion,
    page: fromPage(r.page),
    before: r.before === null ? null : (JSON.parse(r.before) as ResultState),
    after: JSON.parse(r.after) as ResultState,
    by: r.changed_by,
    at: r.changed_at,
  }));
}
