/** Shapes of the generated catalog data (wcag-criteria.data.ts, vpat-chapters.data.ts). */
export type WcagLevel = 'A' | 'AA' | 'AAA';
export type WcagVersion = '2.0' | '2.1' | '2.2';

export interface WcagCriterionData {
  id: string;
  title: string;
  level: WcagLevel;
  /** The WCAG version that introduced the criterion. */
  since: WcagVersion;
  /** Set on 4.1.1 Parsing: obsolete and removed in WCAG 2.2. */
  removedIn?: WcagVersion;
  url: string;
}

export interface StandardData {
  id: string;
  label: string;
  report_heading: string;
  url: string;
}

export interface ChapterData {
  /** OpenACR chapter key, e.g. `hardware` or `en_301_549_software`. */
  id: string;
  /** `508` or `eu`. */
  standard: string;
  label: string;
  criteria: Array<{ id: string; title: string }>;
}

export interface TermData {
  id: string;
  label: string;
  description: string;
}
