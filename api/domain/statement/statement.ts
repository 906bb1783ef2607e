import type { WcagLevel, WcagVersion } from '../../../core/catalog/wcag-types.js';
import type { Conformance, Edition } from '../vpat/editions.js';
import type { AnswerSource } from '../vpat/report.js';
import type { WaiverReasonCategory } from '../waivers/reason-category.js';

/**
 * An accessibility statement as stored and as `GET /api/v1/statements/:id` returns it, in the order of the
 * model statement of Implementing Decision (EU) 2018/1523: compliance status, non-accessible content,
 * preparation, feedback and contact, enforcement. What evidence can say (the status, what fails and where,
 * the waivers, how and when it was evaluated) is derived from a published report; what it cannot say is a
 * person's answer. api/schemas/statement/statement.ts describes the same JSON; every renderer reads only this.
 */

export const COMPLIANCE_STATUSES = ['fully', 'partially', 'not'] as const;
export type ComplianceStatus = (typeof COMPLIANCE_STATUSES)[number];

export const PREPARATION_METHODS = ['self-assessment', 'third-party'] as const;
export type PreparationMethod = (typeof PREPARATION_METHODS)[number];

export type StatementStatus = 'draft' | 'final';

/** A statement is reviewed at least once a year (a person may choose an earlier date). */
export const REVIEW_INTERVAL_MONTHS = 12;

/** How many days before the next review `statement.review_due` is sent and the console gives notice. */
export const REVIEW_NOTICE_DAYS = 30;

/** What no evidence can say: a person's answers, carried from one version to the next. */
export interface StatementAnswers {
  /** The organisation or entity responsible for the service. */
  entity: string | null;
  /** How people tell the entity about accessibility problems and ask for content in an accessible form. */
  feedback: string | null;
  contact_email: string | null;
  contact_phone: string | null;
  contact_url: string | null;
  /** The body that handles complaints when the feedback gets no satisfactory answer, and where to reach it. */
  enforcement_body: string | null;
  enforcement_url: string | null;
  /** Accessible alternatives to the content that is not accessible. */
  alternatives: string | null;
  method: PreparationMethod;
  /** The third party that evaluated the service (default: the testers of the report's assessment). */
  evaluator: string | null;
  /** An earlier next review than a year after publication (YYYY-MM-DD); not carried to the next version. */
  next_review_on: string | null;
}

export type AnswerField = keyof StatementAnswers;

/** An answer publishing still needs, with the question a person is asked. */
export interface MissingAnswer {
  field: AnswerField;
  question: string;
}

/** Rows of the report counted by conformance level (the report's own five terms). */
export type ConformanceCounts = Record<Conformance, number>;

/** One WCAG principle of the report (the requirements of the EAA's Annex I for services are the same four). */
export interface PrincipleSummary {
  id: '1' | '2' | '3' | '4';
  name: 'Perceivable' | 'Operable' | 'Understandable' | 'Robust';
  by_conformance: ConformanceCounts;
  /** The principle's criteria that do not (fully) support, in order. */
  failing: string[];
}

export interface Compliance {
  status: ComplianceStatus;
  standard: {
    label: string;
    url: string;
    edition: Edition;
    wcag_version: WcagVersion;
    level: WcagLevel;
  };
  /** The rule's findings as sentences: why the status is what it is (docs/statement.md). */
  reasons: string[];
  /** The rows the rule counts (Level A and AA criteria, and EN 301 549's own clauses) by conformance. */
  counted: ConformanceCounts;
  principles: PrincipleSummary[];
}

/** A criterion the report answers Partially Supports or Does Not Support, with where the scan saw it fail. */
export interface FailingCriterion {
  id: string;
  title: string;
  level: WcagLevel | null;
  conformance: 'partially-supports' | 'does-not-support';
  /** Where the report's answer comes from: the scan's evidence, a person's decision or an assessment. */
  source: AnswerSource;
  /** The report's remarks (the evidence, or a person's words). */
  remarks: string;
  /** Rules of the scan with violations of this criterion. */
  rules: string[];
  /** Public paths of the pages with violations of it (the first ones; `pages_affected` counts them all). */
  pages: string[];
  pages_affected: number;
  issues: number;
  /** How many of `issues` an active waiver covers (still counted: a waiver is not conformance). */
  waived: number;
}

/** An active waiver of the site, as the statement lists it under its reason category. */
export interface StatementWaiver {
  id: string;
  rule: string;
  selector: string | null;
  url_pattern: string | null;
  fingerprint: string | null;
  reason: string;
  category: WaiverReasonCategory;
  /** The waiver's end: for non-compliance, the date the content is to be fixed by. */
  expires_at: string | null;
  /** The criteria the rule tests (axe-core's tags). */
  criteria: string[];
}

export interface NonAccessibleContent {
  non_compliance: { criteria: FailingCriterion[]; waivers: StatementWaiver[] };
  disproportionate_burden: StatementWaiver[];
  outside_scope: StatementWaiver[];
}

/** What the statement rests on: the published report, its scan and (when it used one) the assessment. */
export interface StatementEvidence {
  report: {
    id: string;
    version: number;
    title: string;
    published: { by: string; at: string };
  };
  scan: { id: string; url: string; pages: number; created_at: string };
  assessment: { id: string; title: string; testers: string[] } | null;
}

export interface Preparation {
  /** When the first version of the site's statement was published (null until then). */
  prepared_on: string | null;
  method: PreparationMethod;
  /** Who evaluated: the third party for `third-party`, else null. */
  evaluator: string | null;
  evidence: StatementEvidence;
  /** This version's publication date (null for a draft). */
  last_reviewed_on: string | null;
  /** Null for a draft without an answer: a year after publication once published. */
  next_review_on: string | null;
}

/** The service the statement is about, as the report names it. */
export interface StatementScope {
  service: string;
  version: string;
  description: string | null;
  url: string | null;
}

export interface AccessibilityStatement {
  id: string;
  siteId: string;
  /** 1 for a site's first statement; each new version starts from the previous one's answers. */
  version: number;
  previous_id: string | null;
  /** `final` once published, and never changed again. */
  status: StatementStatus;
  /** Who published it (the name typed by that person) and when. */
  published: { by: string; at: string } | null;
  answers: StatementAnswers;
  /** Answers publishing still needs: empty before it can be published. */
  missing: MissingAnswer[];
  scope: StatementScope;
  compliance: Compliance;
  non_accessible: NonAccessibleContent;
  preparation: Preparation;
  created_by: { key_id: string | null; name: string };
  created_at: string;
  updated_at: string;
}
