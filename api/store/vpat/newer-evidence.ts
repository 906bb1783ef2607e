import type { Knex } from 'knex';
import type { ResultState } from '../../domain/vpat/assessments/assessment.js';

/**
 * What is newer than a report version: changes to its assessment's results after the last one it read,
 * and complete scans of the site's base branch after its scan.
 */

/** A result as its latest change after the mark left it. */
export interface NewerResult {
  criterion: string;
  /** null: the whole sample. */
  page: string | null;
  after: ResultState;
  by: string;
  at: string;
}

/** The number of the last change to an assessment's results (0: none yet): a version's high-water mark. */
export async function lastResultChange(db: Knex, assessmentId: string): Promise<number> {
  const row = await db('assessment_result_changes')
    .where({ assessment_id: assessmentId })
    .max<{ id: number | string | null }>({ id: 'id' })
    .first();
  return Number(row?.id ?? 0);
}

/**
 * The results changed after a mark (the last change a version read; a report stored before marks were
 * kept gives its creation time instead), one per criterion and page, as their latest change left them.
 */
export async function resultsChangedAfter(
  db: Knex,
  assessmentId: string,
  mark: { changeId: number } | { at: string },
): Promise<NewerResult[]> {
  const rows = await db('assessment_result_changes')
    .where({ assessment_id: assessmentId })
    .modify((q) => {
      if ('changeId' in mark) q.andWhere('id', '>', mark.changeId);
      else q.andWhere('changed_at', '>', mark.at);
    })
    .orderBy('id')
    .select<
      Array<{ criterion: string; page: string; after: string; changed_by: string; changed_at: string }>
    >('criterion', 'page', 'after', 'changed_by', 'changed_at');
  const latest = new Map<string, NewerResult>();
  for (const r of rows) {
    latest.set(`${r.criterion}\u0000${r.page}`, {
      criterion: r.criterion,
      page: r.page === '' ? null : r.page,
      after: JSON.parse(r.after) as ResultState,
      by: r.changed_by,
      at: r.changed_at,
    });
  }
  return [...latest.values()];
}

/** Complete full scans of a site's branch made after `after`: how many, and the newest of them. */
export async function scansAfter(
  db: Knex,
  org: string,
  siteId: string,
  branch: string,
  after: string,
): Promise<{ count: number; latestId: string | null }> {
  const where = (q: Knex.QueryBuilder) => {
    // Only a full scan is one a next version would be made from (latestEvidenceScan).
    void q
      .where({ org, site_id: siteId, branch, status: 'complete', scope: 'full' })
      .andWhere('created_at', '>', after);
  };
  const count = await db('scans').modify(where).count<Array<{ n: number | string }>>({ n: '*' });
  const latest = await db('scans')
    .modify(where)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first<{ id: string } | undefined>('id');
  return { count: Number(count[0]?.n ?? 0), latestId: latest?.id ?? null };
}
