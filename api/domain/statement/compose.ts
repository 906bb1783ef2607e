import type { VpatReport } from '../vpat/report.js';
import type { RuleCoverage } from '../vpat/rule-coverage.js';
import { complianceOf } from './compliance.js';
import {
  hasNonAccessibleContent,
  nonAccessibleContent,
  type CriterionViolations,
  type WaiverInput,
} from './non-accessible.js';
import {
  REVIEW_INTERVAL_MONTHS,
  type AccessibilityStatement,
  type MissingAnswer,
  type StatementAnswers,
  type StatementEvidence,
} from './statement.js';

/**
 * A statement version composed from a published report, the scan's violations, the site's waivers and a
 * person's answers; and its publication. Pure: the service reads the evidence and stores what this returns.
 */

export const NO_ANSWERS: StatementAnswers = {
  entity: null,
  feedback: null,
  contact_email: null,
  contact_phone: null,
  contact_url: null,
  enforcement_body: null,
  enforcement_url: null,
  alternatives: null,
  method: 'self-assessment',
  evaluator: null,
  next_review_on: null,
};

/** What a version carries to the next one: every answer but the chosen review date, which was this one's. */
export function carriedAnswers(previous: StatementAnswers): StatementAnswers {
  return { ...previous, next_review_on: null };
}

/** `base` with each answer `given` replaced (`null` clears one; an absent one stays). */
export function withAnswers(base: StatementAnswers, given: Partial<StatementAnswers>): StatementAnswers {
  const out = { ...base };
  for (const [field, value] of Object.entries(given) as Array<[keyof StatementAnswers, unknown]>) {
    if (value !== undefined) (out as Record<string, unknown>)[field] = value;
  }
  return out;
}

export interface StatementFrame {
  id: string;
  siteId: string;
  version: number;
  previousId: string | null;
  /** The publication date of the site's first published statement, when there is one. */
  preparedOn: string | null;
  answers: StatementAnswers;
  createdBy: AccessibilityStatement['created_by'];
  createdAt: string;
  now: string;
}

export interface StatementInput {
  frame: StatementFrame;
  /** A final report of the site. */
  report: VpatReport;
  violations: ReadonlyMap<string, CriterionViolations>;
  waivers: readonly WaiverInput[];
  coverage: RuleCoverage;
}

function evidenceOf(report: VpatReport): StatementEvidence {
  return {
    report: {
      id: report.id,
      version: report.version,
      title: report.title,
      published: report.published ?? { by: '', at: report.created_at },
    },
    scan: {
      id: report.scan.id,
      url: report.scan.url,
      pages: report.scan.pages,
      created_at: report.scan.created_at,
    },
    assessment: report.assessment
      ? { id: report.assessment.id, title: report.assessment.title, testers: report.assessment.testers }
      : null,
  };
}

/** The third party that evaluated: the answer, else the testers of the report's assessment. */
function evaluatorOf(answers: StatementAnswers, evidence: StatementEvidence): string | null {
  if (answers.method !== 'third-party') return null;
  return answers.evaluator ?? (evidence.assessment?.testers.join(', ') || null);
}

/** The answers publishing still needs, each with its question. */
export function missingAnswers(s: Omit<AccessibilityStatement, 'missing'>): MissingAnswer[] {
  const a = s.answers;
  const missing: MissingAnswer[] = [];
  const ask = (when: boolean, field: MissingAnswer['field'], question: string) => {
    if (when) missing.push({ field, question });
  };
  ask(!a.entity, 'entity', 'Which organisation is responsible for the service?');
  ask(
    !a.feedback,
    'feedback',
    'How do people report an accessibility problem or ask for content in an accessible form?',
  );
  ask(
    !a.contact_email && !a.contact_phone && !a.contact_url,
    'contact_email',
    'Where can people reach you: an e-mail address, a phone number or a web address?',
  );
  ask(!a.enforcement_body, 'enforcement_body', 'Which body enforces the applicable legislation?');
  ask(!a.enforcement_url, 'enforcement_url', 'Where do people reach the enforcement body (a web address)?');
  ask(
    !a.alternatives && hasNonAccessibleContent(s.non_accessible),
    'alternatives',
    'Which accessible alternatives do you offer for the content that is not accessible?',
  );
  ask(
    s.preparation.method === 'third-party' && !s.preparation.evaluator,
    'evaluator',
    'Which third party evaluated the service?',
  );
  return missing;
}

/** A draft version: everything the evidence says, the answers as given, and what is still missing. */
export function composeStatement(input: StatementInput): AccessibilityStatement {
  const { frame, report } = input;
  const evidence = evidenceOf(report);
  const p = report.product;
  const draft: Omit<AccessibilityStatement, 'missing'> = {
    id: frame.id,
    siteId: frame.siteId,
    version: frame.version,
    previous_id: frame.previousId,
    status: 'draft',
    published: null,
    answers: frame.answers,
    scope: { service: p.name, version: p.version, description: p.description ?? null, url: p.url ?? null },
    compliance: complianceOf(report),
    non_accessible: nonAccessibleContent(report, input.violations, input.waivers, input.coverage),
    preparation: {
      prepared_on: frame.preparedOn,
      method: frame.answers.method,
      evaluator: evaluatorOf(frame.answers, evidence),
      evidence,
      last_reviewed_on: null,
      next_review_on: frame.answers.next_review_on,
    },
    created_by: frame.createdBy,
    created_at: frame.createdAt,
    updated_at: frame.now,
  };
  return { ...draft, missing: missingAnswers(draft) };
}

/** `date` (YYYY-MM-DD) plus whole months, in UTC. */
export function addMonths(date: string, months: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
}

/** The latest next review a version published on `date` may have: a year after it. */
export function latestReviewOn(date: string): string {
  return addMonths(date, REVIEW_INTERVAL_MONTHS);
}

/** The final version: who published it and when, reviewed today, next reviewed as answered or in a year. */
export function publishStatement(
  s: AccessibilityStatement,
  publisher: string,
  at: string,
): AccessibilityStatement {
  const today = at.slice(0, 10);
  return {
    ...s,
    status: 'final',
    published: { by: publisher, at },
    preparation: {
      ...s.preparation,
      prepared_on: s.preparation.prepared_on ?? today,
      last_reviewed_on: today,
      next_review_on: s.answers.next_review_on ?? latestReviewOn(today),
    },
    updated_at: at,
  };
}
