import type { Assessment, AssessmentResult } from './assessments/assessment.js';
import { criterionVerdict, groupByCriterion, type Verdict } from './assessments/verdict.js';
import { publicPath } from '../../../core/url-normalisation.js';
import type { ReportCriterion, VpatReport } from './report.js';

/**
 * A report's rows after an assessment's human results (WCAG-EM step 4) are laid over the automated
 * evidence. A person's decision on the report (an override) still wins; automated violations win over a
 * human "passed", and the row goes back to a person naming the contradiction. Pure.
 */

const list = (names: readonly string[]) => names.join(', ') || 'a tester';

function testedBy(v: { testers: string[]; date: string }): string {
  return `tested by ${list(v.testers)} on ${v.date}`;
}

function humanRow(row: ReportCriterion, v: Exclude<Verdict, { kind: 'undecided' }>): ReportCriterion {
  const base = { ...row, source: 'assessment' as const, basis: 'human-tested' as const };
  // Failures W3C relates to the criterion still ask a person to look, whatever the sample showed.
  const related = row.related.length > 0;
  const relatedNote = related ? ` ${row.remarks}` : '';
  if (v.kind === 'failed') {
    const majority = v.failedPages.length * 2 > v.pages;
    return {
      ...base,
      conformance: majority ? 'does-not-support' : 'partially-supports',
      remarks: `Failed on ${v.failedPages.length} of ${v.pages} sampled pages (${v.failedPages.map(publicPath).join(', ')}); ${testedBy(v)}.`,
      needs_review: false,
    };
  }
  if (v.kind === 'inapplicable') {
    return {
      ...base,
      conformance: 'not-applicable',
      remarks: `Not applicable on any of the ${v.pages} sampled pages; ${testedBy(v)}.${relatedNote}`,
      needs_review: related,
    };
  }
  return {
    ...base,
    conformance: 'supports',
    remarks: `Passed on every one of the ${v.pages} sampled pages; ${testedBy(v)}.${relatedNote}`,
    needs_review: related,
  };
}

function contradiction(row: ReportCriterion, v: Extract<Verdict, { kind: 'passed' | 'inapplicable' }>) {
  const said = v.kind === 'passed' ? 'Passed' : 'Not Applicable';
  return {
    ...row,
    needs_review: true,
    remarks:
      `Contradiction: the assessment says ${said} (${testedBy(v)}), but automated testing found ` +
      `${row.evidence.issues} violation${row.evidence.issues === 1 ? '' : 's'} on ${row.evidence.pages_affected} of ` +
      `${row.evidence.pages_total} pages; a person must resolve it. ${row.remarks}`,
  };
}

export function applyAssessment(
  criteria: readonly ReportCriterion[],
  verdicts: ReadonlyMap<string, Verdict>,
): ReportCriterion[] {
  return criteria.map((row) => {
    const v = verdicts.get(row.id);
    // Chapter rows, 4.1.1 (decided by the VPAT rules) and a person's answer on the report are left alone.
    if (!v || v.kind === 'undecided' || row.level === null || row.source !== 'evidence') return row;
    if (row.basis === 'violations') {
      // The automated failure stands; a human failure agrees with it.
      return v.kind === 'failed' ? row : contradiction(row, v);
    }
    return humanRow(row, v);
  });
}

/** People's results on a page sample (an assessment), as a report version reads them. */
export interface HumanEvidence {
  assessment: Assessment;
  results: AssessmentResult[];
  /** The last change to the results when they were read (0: none): what the report is up to date with. */
  changesThrough?: number;
}

/** Each criterion's verdict over the sample. */
export function verdictsOf(e: HumanEvidence): Map<string, Verdict> {
  const sample = e.assessment.sample.map((p) => p.url);
  const out = new Map<string, Verdict>();
  for (const [criterion, results] of groupByCriterion(e.results))
    out.set(criterion, criterionVerdict(sample, results));
  return out;
}

/** The report's view of the assessment: which one, its sample by public path, and its testers. */
export function assessmentSummary(e: HumanEvidence): NonNullable<VpatReport['assessment']> {
  return {
    id: e.assessment.id,
    title: e.assessment.title,
    sample: e.assessment.sample.map((p) => publicPath(p.url)),
    testers: [...new Set(e.results.map((r) => r.tester))].sort(),
    ...(e.changesThrough === undefined ? {} : { changes_through: e.changesThrough }),
  };
}
