import type { FingerprintStep } from './matcher.js';

/**
 * Keeps, of the issues step 2 needs, those on a page where the other scan has some too (`headPage`
 * and `baselinePage` give an issue's page key), and every member of a fingerprint group. Step 2 pairs
 * issues outside groups only within one page, so the others stay new (or fixed) whatever their
 * details, which the caller then need not read.
 */
export function keepSharedPages(
  step: FingerprintStep,
  headPage: (i: number) => string,
  baselinePage: (j: number) => string,
): void {
  const headPages = new Set(step.headNeeds.map(headPage));
  const baselinePages = new Set(step.baselineNeeds.map(baselinePage));
  const inGroup = { head: new Set<number>(), baseline: new Set<number>() };
  for (const g of step.groups) {
    for (const i of g.head) inGroup.head.add(i);
    for (const j of g.baseline) inGroup.baseline.add(j);
  }
  step.headNeeds = step.headNeeds.filter((i) => inGroup.head.has(i) || baselinePages.has(headPage(i)));
  step.baselineNeeds = step.baselineNeeds.filter(
    (j) => inGroup.baseline.has(j) || headPages.has(baselinePage(j)),
  );
}
