import { wcagCriteria, type WcagCriterion } from '../../catalog/wcag.js';
import type { AssessmentLevel, AssessmentResult, Outcome } from './assessment.js';

/**
 * What an assessment's results say about one criterion over the whole sample (WCAG-EM step 4). A page's
 * outcome is its own result, else the whole-sample result (`page: null`), else untested. Pure.
 */
export type Verdict =
  | { kind: 'passed'; pages: number; testers: string[]; date: string }
  | { kind: 'failed'; failedPages: string[]; pages: number; testers: string[]; date: string }
  | { kind: 'inapplicable'; pages: number; testers: string[]; date: string }
  | { kind: 'undecided'; open: number; pages: number };

/** The criteria an assessment tests: WCAG 2.2 up to its level; 4.1.1 Parsing is obsolete and counts for nothing. */
export function assessedCriteria(level: AssessmentLevel): WcagCriterion[] {
  return wcagCriteria('2.2', level).filter((c) => !c.obsolete);
}

/** Each sampled page's outcome for one criterion. */
export function pageOutcomes(
  sample: readonly string[],
  results: readonly AssessmentResult[],
): Array<{ page: string; outcome: Outcome; result: AssessmentResult | undefined }> {
  const byPage = new Map(results.map((r) => [r.page, r]));
  const whole = byPage.get(null);
  return sample.map((page) => {
    const result = byPage.get(page) ?? whole;
    return { page, outcome: result?.outcome ?? 'untested', result };
  });
}

export function criterionVerdict(sample: readonly string[], results: readonly AssessmentResult[]): Verdict {
  // An empty sample can still be answered as a whole.
  const outcomes =
    sample.length > 0
      ? pageOutcomes(sample, results)
      : results.filter((r) => r.page === null).map((r) => ({ page: '', outcome: r.outcome, result: r }));
  const pages = outcomes.length;
  const used = outcomes.flatMap((o) => (o.result ? [o.result] : []));
  const testers = [...new Set(used.map((r) => r.tester))].sort();
  const date = used.reduce((d, r) => (r.updatedAt > d ? r.updatedAt : d), '').slice(0, 10);
  const failed = outcomes.filter((o) => o.outcome === 'failed').map((o) => o.page);
  if (failed.length > 0) return { kind: 'failed', failedPages: failed, pages, testers, date };
  const open = outcomes.filter((o) => o.outcome === 'cantTell' || o.outcome === 'untested').length;
  if (pages === 0 || open > 0) return { kind: 'undecided', open, pages };
  if (outcomes.every((o) => o.outcome === 'inapplicable'))
    return { kind: 'inapplicable', pages, testers, date };
  return { kind: 'passed', pages, testers, date };
}

/** Progress over the whole assessment: criteria decided of all. */
export function progress(
  level: AssessmentLevel,
  sample: readonly string[],
  results: readonly AssessmentResult[],
): { criteria: number; decided: number; passed: number; failed: number; inapplicable: number } {
  const byCriterion = groupByCriterion(results);
  const out = { criteria: 0, decided: 0, passed: 0, failed: 0, inapplicable: 0 };
  for (const c of assessedCriteria(level)) {
    out.criteria++;
    const v = criterionVerdict(sample, byCriterion.get(c.id) ?? []);
    if (v.kind === 'undecided') continue;
    out.decided++;
    out[v.kind]++;
  }
  return out;
}

export function groupByCriterion(results: readonly AssessmentResult[]): Map<string, AssessmentResult[]> {
  const out = new Map<string, AssessmentResult[]>();
  for (const r of results) {
    const list = out.get(r.criterion) ?? [];
    list.push(r);
    out.set(r.criterion, list);
  }
  return out;
}
