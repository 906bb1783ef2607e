/**
 * WCAG success-criterion ids (`1.4.3`) from what engines emit: axe-core's `wcagNNN` tags and
 * HTML_CodeSniffer's technique codes.
 */

/** `1.4.3`, `2.5.8`, `1.4.12`: principle 1-4, guideline, criterion. */
export const CRITERION_ID = /^[1-4]\.\d{1,2}\.\d{1,2}$/;

/**
 * Criteria one issue may name: an issue's criteria are stored comma-separated in a 255-character
 * column (32 ids of up to 7 characters). Real axe rules name one to three.
 */
export const MAX_CRITERIA_PER_ISSUE = 32;

/**
 * axe tags `wcag143` → `1.4.3`, `wcag1412` → `1.4.12`, `wcag258` → `2.5.8`. WCAG guidelines are single
 * digits (at most 1.4 / 2.5 / 3.3 / 4.1), so everything after the second digit is the criterion.
 * Level tags (`wcag2aa`, `wcag21a`) and others are ignored.
 */
export function criteriaFromAxeTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const tag of tags) {
    const m = /^wcag([1-4])(\d)(\d{1,2})$/.exec(tag);
    if (!m) continue;
    const id = `${m[1]}.${m[2]}.${Number(m[3])}`;
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

/**
 * HTML_CodeSniffer codes: `WCAG2AA.Principle1.Guideline1_4.1_4_3.G18.Fail` → `1.4.3` (also with a level
 * suffix, `…Guideline1_3.1_3_1_A.G141` → `1.3.1`). Section 508
 * codes (`Section508.A.…`) name no WCAG criterion and give none.
 */
export function criterionFromHtmlcsCode(code: string): string | undefined {
  const m = /\.Guideline\d+_\d+\.(\d)_(\d{1,2})_(\d{1,2})(?:_A{1,3})?(?:\.|$)/.exec(code);
  return m ? `${m[1]}.${m[2]}.${m[3]}` : undefined;
}
