/**
 * WCAG success-criterion ids (`1.4.3`) from HTML_CodeSniffer's technique codes, and what an issue may
 * name (axe-core's `wcagNNN` tags are read by core/scans/wcag-tags.ts, which the CLI's report shares).
 */

/** `1.4.3`, `2.5.8`, `1.4.12`: principle 1-4, guideline, criterion. */
export const CRITERION_ID = /^[1-4]\.\d{1,2}\.\d{1,2}$/;

/**
 * Criteria one issue may name: an issue's criteria are stored comma-separated in a 255-character
 * column (32 ids of up to 7 characters). Real axe rules name one to three.
 */
export const MAX_CRITERIA_PER_ISSUE = 32;

/**
 * HTML_CodeSniffer codes: `WCAG2AA.Principle1.Guideline1_4.1_4_3.G18.Fail` → `1.4.3` (also with a level
 * suffix, `…Guideline1_3.1_3_1_A.G141` → `1.3.1`). Section 508
 * codes (`Section508.A.…`) name no WCAG criterion and give none.
 */
export function criterionFromHtmlcsCode(code: string): string | undefined {
  const m = /\.Guideline\d+_\d+\.(\d)_(\d{1,2})_(\d{1,2})(?:_A{1,3})?(?:\.|$)/.exec(code);
  return m ? `${m[1]}.${m[2]}.${m[3]}` : undefined;
}
