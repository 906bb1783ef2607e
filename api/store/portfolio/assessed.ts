import type { Knex } from 'knex';
import type { AssessmentResult, Outcome } from '../../domain/vpat/assessments/assessment.js';

/** People's results recorded in a year, per assessment, for the Section 508 figures (docs/portfolio.md). */

export interface AssessedInYear {
  siteId: string;
  sample: string[];
  results: AssessmentResult[];
}

/** The assessments of the given sites (all the org's when undefined) with their results written that year. */
export async function resultsInYear(
  db: Knex,
  org: string,
  sites: readonly string[] | undefined,
  year: number,
): Promise<AssessedInYear[]> {
  const q = db('assessment_results as r')
    .join('assessments as a', 'a.id', 'r.assessment_id')
    .where('a.org', org)
    .andWhere('r.updated_at', '>=', `${year}-01-01T00:00:00.000Z`)
    .andWhere('r.updated_at', '<', `${year + 1}-01-01T00:00:00.000Z`);
  if (sites !== undefined) q.whereIn('a.site_id', sites.length > 0 ? [...sites] : ['']);
  const rows = await q.orderBy(['a.id', 'r.criterion', 'r.page']).select<
    Array<{
      id: string;
      site_id: string;
      sample: string;
      criterion: string;
      page: string;
      outcome: Outcome;
      notes: string;
      tester: string;
      version: number | string;
      updated_at: string;
    }>
  >('a.id', 'a.site_id', 'a.sample', 'r.criterion', 'r.page', 'r.outcome', 'r.notes', 'r.tester', 'r.version', 'r.updated_at');
  const out = new Map<string, AssessedInYear>();
  for (const r of rows) {
    let a = out.get(r.id);
    if (!a) {
      const sample = JSON.parse(r.sample) as Array<{ url: string }>;
      a = { siteId: r.site_id, sample: sample.map((p) => p.url), results: [] };
      out.set(r.id, a);
    }
    a.results.push({
      criterion: r.criterion,
      page: r.page === '' ? null : r.page,
      outcome: r.outcome,
      notes: r.notes,
      tester: r.tester,
      version: Number(r.version),
      updatedAt: r.updated_at,
    });
  }
  return [...out.values()];
}
