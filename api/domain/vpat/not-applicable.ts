import type { EvidencePage } from './evidence-tally.js';
import { plural } from '../../../core/text/wording.js';

/**
 * A suggestion, never an answer: the rules that test a criterion ran on every scanned page and found
 * nothing there to test (axe-core's `inapplicable`: no video for the captions rule, no form field for the
 * label rule), so the criterion may not apply to the product. Only a person answers Not Applicable;
 * the row shows this with its evidence until then. Pure.
 */
export interface NotApplicableSuggestion {
  conformance: 'not-applicable';
  /** The rules that had nothing to test, sorted. */
  rules: string[];
  /** On how many pages (every scanned page). */
  pages: number;
  reason: string;
}

/**
 * The suggestion for a criterion tested by `rules` (the covering rules that ran), or null unless every
 * page says which rules had nothing to test and each of those rules is among them on every page.
 */
export function suggestNotApplicable(
  rules: readonly string[],
  pages: readonly EvidencePage[],
): NotApplicableSuggestion | null {
  if (rules.length === 0 || pages.length === 0) return null;
  for (const page of pages) {
    if (!page.rulesInapplicable) return null;
    const inapplicable = new Set(page.rulesInapplicable);
    if (!rules.every((r) => inapplicable.has(r))) return null;
  }
  const sorted = [...new Set(rules)].sort();
  return {
    conformance: 'not-applicable',
    rules: sorted,
    pages: pages.length,
    reason:
      `Suggested: Not Applicable. The axe-core ${sorted.length === 1 ? 'rule that tests' : 'rules that test'} this criterion ` +
      `(${sorted.join(', ')}) found nothing to test on any of the ${plural(pages.length, 'scanned page')}. ` +
      'A person decides whether the criterion applies.',
  };
}
