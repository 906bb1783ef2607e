import { plural } from '../../../../core/text/wording.js';
import { listWords } from '../../vpat/remarks.js';
import { CONFORMANCE_LABELS } from '../../vpat/render/html.js';
import type { WaiverReasonCategory } from '../../waivers/reason-category.js';
import type {
  AccessibilityStatement,
  ComplianceStatus,
  FailingCriterion,
  PrincipleSummary,
  StatementWaiver,
} from '../statement.js';

/**
 * The statement's sentences as plain text, the same for every format: each renderer escapes them for its
 * medium (HTML, Markdown). Pure.
 */

/** Shown where a person's answer is still missing (a draft only: a final statement has every answer). */
export const NOT_ANSWERED = '[not answered yet]';

export const STATUS_WORDS: Record<ComplianceStatus, string> = {
  fully: 'fully compliant',
  partially: 'partially compliant',
  not: 'not compliant',
};

export const CATEGORY_HEADINGS: Record<WaiverReasonCategory, string> = {
  'non-compliance': 'Non-compliance with the accessibility requirements',
  'disproportionate-burden': 'Disproportionate burden',
  'outside-scope': 'Content that is not within the scope of the applicable legislation',
};

export const answerOr = (value: string | null): string => value ?? NOT_ANSWERED;

export function title(s: AccessibilityStatement): string {
  return `Accessibility statement for ${s.scope.service}`;
}

export function statusLine(s: AccessibilityStatement): string {
  if (s.status === 'final' && s.published) {
    return `Version ${s.version}, published by ${s.published.by} on ${s.published.at.slice(0, 10)}.`;
  }
  const left = s.missing.length;
  return (
    `Draft statement (version ${s.version}): not published. ` +
    (left === 0
      ? 'Every answer is given; it can be published.'
      : `${plural(left, 'answer is', 'answers are')} still missing.`)
  );
}

export function introduction(s: AccessibilityStatement): string[] {
  const where = s.scope.url ? ` at ${s.scope.url}` : '';
  return [
    `${answerOr(s.answers.entity)} is committed to making ${s.scope.service} accessible, in accordance with the applicable legislation.`,
    `This accessibility statement applies to ${s.scope.service} ${s.scope.version}${where}.`,
  ];
}

export function complianceSentence(s: AccessibilityStatement): string {
  const c = s.compliance;
  const tail =
    c.status === 'fully'
      ? '.'
      : c.status === 'partially'
        ? ', due to the non-compliances and the exemptions listed below.'
        : '. The non-compliances and the exemptions are listed below.';
  return `${s.scope.service} is ${STATUS_WORDS[c.status]} with ${c.standard.label}${tail}`;
}

export function complianceBasis(s: AccessibilityStatement): string {
  const c = s.compliance;
  const r = s.preparation.evidence.report;
  return (
    `The status follows from the evaluation against the WCAG ${c.standard.wcag_version} Level ${c.standard.level} success criteria ` +
    `(EN 301 549's requirements for the web are the Level A and AA criteria) in the accessibility conformance report ${r.id}, ` +
    `version ${r.version}, published by ${r.published.by} on ${r.published.at.slice(0, 10)}.`
  );
}

export function criterionHeading(c: FailingCriterion): string {
  const level = c.level ? ` (Level ${c.level})` : '';
  return `${c.id} ${c.title}${level}: ${CONFORMANCE_LABELS[c.conformance]}`;
}

/** Where the scan saw it fail, or that the failure is people's finding. */
export function criterionWhere(c: FailingCriterion): string {
  if (c.pages_affected === 0) return 'The failure was found by people, not by the automated scan.';
  const more = c.pages_affected - c.pages.length;
  const waived =
    c.waived > 0
      ? ` ${plural(c.waived, 'issue')} of these ${c.waived === 1 ? 'is' : 'are'} waived (see below).`
      : '';
  return (
    `The scan found ${plural(c.issues, 'issue')} on ${plural(c.pages_affected, 'page')} ` +
    `(${c.rules.length === 1 ? 'rule' : 'rules'} ${listWords(c.rules)})` +
    `${more > 0 ? `; the first ${c.pages.length} pages are listed` : ''}.${waived}`
  );
}

/** A person's words (a decision, or an assessment's finding) are shown; the scan's are said by `criterionWhere`. */
export const criterionRemarks = (c: FailingCriterion): string | null =>
  c.source === 'evidence' ? null : c.remarks;

/** What a waiver covers: its rule, and where. */
export function waiverScope(w: StatementWaiver): string {
  const where = [
    w.url_pattern ? `pages ${w.url_pattern}` : null,
    w.selector ? `the element ${w.selector}` : null,
    w.fingerprint ? `one issue (${w.fingerprint.slice(0, 12)})` : null,
  ].filter((x): x is string => x !== null);
  const criteria = w.criteria.length > 0 ? ` (WCAG ${listWords(w.criteria)})` : '';
  return `Rule ${w.rule}${criteria}${where.length > 0 ? ` on ${where.join(', ')}` : ' everywhere on the site'}`;
}

/** The waiver's reason, in the words its category asks for. */
export function waiverReason(w: StatementWaiver): string {
  const until = w.expires_at ? w.expires_at.slice(0, 10) : null;
  switch (w.category) {
    case 'non-compliance':
      return `${w.reason} ${until ? `To be fixed by ${until}.` : 'No date to fix it by is set.'}`;
    case 'disproportionate-burden':
      return `Assessment of the burden: ${w.reason}${until ? ` The assessment is reviewed by ${until}.` : ''}`;
    case 'outside-scope':
      return w.reason;
  }
}

export function noneUnder(category: WaiverReasonCategory): string {
  return category === 'non-compliance'
    ? 'No criterion fails and no issue is accepted as not yet fixed.'
    : category === 'disproportionate-burden'
      ? 'No content is claimed to be a disproportionate burden.'
      : 'No content is declared outside the scope of the applicable legislation.';
}

export function preparation(s: AccessibilityStatement): string[] {
  const p = s.preparation;
  const e = p.evidence;
  const method =
    p.method === 'third-party'
      ? `an assessment carried out by a third party, ${answerOr(p.evaluator)}`
      : 'a self-assessment';
  const assessment = e.assessment
    ? ` People tested a sample of its pages in the assessment “${e.assessment.title}” (${e.assessment.testers.join(', ') || 'no tester named'}).`
    : '';
  return [
    p.prepared_on
      ? `This statement was prepared on ${p.prepared_on}.`
      : 'This statement is prepared on the day it is first published.',
    `The method used to prepare it is ${method}.`,
    `It rests on the accessibility conformance report ${e.report.id} (version ${e.report.version}, ${e.report.title}), ` +
      `made from an automated scan of ${plural(e.scan.pages, 'page')} on ${e.scan.created_at.slice(0, 10)} (scan ${e.scan.id}).${assessment}`,
    p.last_reviewed_on
      ? `The statement was last reviewed on ${p.last_reviewed_on}; it is next reviewed by ${p.next_review_on ?? NOT_ANSWERED}.`
      : `The statement is reviewed when it is published, and again at least once a year${p.next_review_on ? ` (next by ${p.next_review_on})` : ''}.`,
  ];
}

/** The accessible alternatives as answered; none are needed when nothing is listed as not accessible. */
export function alternatives(s: AccessibilityStatement): string {
  if (s.answers.alternatives) return s.answers.alternatives;
  return s.missing.some((m) => m.field === 'alternatives') ? NOT_ANSWERED : 'None are needed.';
}

export const FEEDBACK_INTRO =
  'We welcome your feedback on the accessibility of the service. Tell us about any problem you meet, or ask for content in an accessible form:';

export function enforcementSentence(s: AccessibilityStatement): string {
  return (
    'If you are not satisfied with our answer to your feedback or request, you can contact the body that ' +
    `enforces the applicable legislation: ${answerOr(s.answers.enforcement_body)}.`
  );
}

/** "Perceivable: 20 of 24 applicable criteria Support; Partially Supports: 1.1.1, 1.4.3." */
export function principleSentence(p: PrincipleSummary): string {
  const b = p.by_conformance;
  const applicable = Object.values(b).reduce((a, n) => a + n, 0) - b['not-applicable'];
  const failing = p.failing.length > 0 ? ` Not met in full: ${listWords(p.failing, 10)}.` : '';
  const open =
    b['not-evaluated'] > 0
      ? ` ${plural(b['not-evaluated'], 'criterion was', 'criteria were')} not evaluated.`
      : '';
  return `${p.name}: ${b.supports} of ${plural(applicable, 'applicable criterion', 'applicable criteria')} supported.${failing}${open}`;
}
