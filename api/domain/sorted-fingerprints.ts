import type { FingerprintStep, MatchIssue } from './issue-matching.js';

/**
 * Step 1 of the matcher (issue-matching.ts) for two lists sorted by fingerprint, which is how the gate
 * reads a scan (in the order of its fingerprint index). Pure.
 */

export function sortedByFingerprint(issues: readonly MatchIssue[]): boolean {
  for (let k = 1; k < issues.length; k++) if (issues[k - 1].fingerprint > issues[k].fingerprint) return false;
  return true;
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

/**
 * One merge of the two lists: equal fingerprints are adjacent, so none is hashed (a Map of 50,000
 * fingerprints was most of step 1's time). The same pairs, groups and needs as the general case;
 * the needs come out in index order.
 */
export function mergeSorted(
  head: readonly MatchIssue[],
  baseline: readonly MatchIssue[],
  step: FingerprintStep,
): FingerprintStep {
  const { headToBaseline, baselineToHead } = step.matching;
  let i = 0;
  let j = 0;
  while (i < head.length || j < baseline.length) {
    const f = i < head.length ? head[i].fingerprint : undefined;
    const g = j < baseline.length ? baseline[j].fingerprint : undefined;
    if (g === undefined || (f !== undefined && f < g)) step.headNeeds.push(i++);
    else if (f === undefined || g < f) step.baselineNeeds.push(j++);
    else {
      let i2 = i + 1;
      let j2 = j + 1;
      while (i2 < head.length && head[i2].fingerprint === f) i2++;
      while (j2 < baseline.length && baseline[j2].fingerprint === f) j2++;
      if (i2 - i === 1 && j2 - j === 1) {
        headToBaseline[i] = j;
        baselineToHead[j] = i;
      } else {
        step.groups.push({ head: range(i, i2), baseline: range(j, j2) });
        for (let k = i; k < i2; k++) step.headNeeds.push(k);
        for (let k = j; k < j2; k++) step.baselineNeeds.push(k);
      }
      i = i2;
      j = j2;
    }
  }
  return step;
}
