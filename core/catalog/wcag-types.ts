/** Shapes of the WCAG catalog data (wcag-criteria.data.ts), which every face reads. */
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
