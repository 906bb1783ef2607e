import type { WcagLevel } from '../../../../core/catalog/wcag-types.js';

/**
 * An assessment: a person's evaluation of a site following W3C's WCAG-EM (a page sample, each
 * criterion tested on each sampled page), its results in EARL's outcome vocabulary, and every change
 * to them. The domain's view; the store and the schemas map to and from it.
 */

/** EARL's outcome values (http://www.w3.org/ns/earl#), the same words the WCAG-EM Report Tool uses. */
export const OUTCOMES = ['passed', 'failed', 'cantTell', 'inapplicable', 'untested'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The levels an assessment can target: procedures exist for Level A and AA criteria. */
export const ASSESSMENT_LEVELS = ['A', 'AA'] as const satisfies readonly WcagLevel[];
export type AssessmentLevel = (typeof ASSESSMENT_LEVELS)[number];

/** Where an assessment came from: made here, or imported from a tool's export. */
export const ASSESSMENT_ORIGINS = [
  'created',
  'wcag-em-report-tool',
  'accessibility-insights',
  'earl',
] as const;
export type AssessmentOrigin = (typeof ASSESSMENT_ORIGINS)[number];

/** The largest sample WCAG-EM's own tool handles comfortably; 500 pages is far beyond any audit. */
export const MAX_SAMPLE = 500;

/** The longest page URL a sample holds, created or imported. */
export const MAX_PAGE_URL = 2000;

export interface SamplePage {
  url: string;
  /** `chosen` by a person (WCAG-EM's structured sample) or `random` (drawn with the recorded seed). */
  source: 'chosen' | 'random';
}

export interface Assessment {
  id: string;
  org: string;
  siteId: string;
  /** The scan the sample was drawn from (null for an import that named no scan). */
  scanId: string | null;
  title: string;
  level: AssessmentLevel;
  sample: SamplePage[];
  /** The seed of the random draw (null when nothing was drawn). */
  seed: number | null;
  origin: AssessmentOrigin;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
}

/** What one result says; `page` null answers the criterion for the whole sample. */
export interface ResultState {
  outcome: Outcome;
  notes: string;
  tester: string;
}

export interface AssessmentResult extends ResultState {
  criterion: string;
  page: string | null;
  /** Starts at 1 and grows with every write: the result's ETag. */
  version: number;
  updatedAt: string;
}

/** One change to a result: who, when, before (null when the result was new) and after. */
export interface ResultChange {
  criterion: string;
  page: string | null;
  before: ResultState | null;
  after: ResultState;
  by: string;
  at: string;
}

/** The criteria an assessment tests: WCAG 2.2 up to its level, without 4.1.1 (obsolete, counts for nothing). */
export function isAssessedLevel(level: string): level is AssessmentLevel {
  return (ASSESSMENT_LEVELS as readonly string[]).includes(level);
}

/** A result as an imported file gives it: for a criterion, on a page or (null) the whole sample. */
export interface ImportedResult extends ResultState {
  criterion: string;
  page: string | null;
}
