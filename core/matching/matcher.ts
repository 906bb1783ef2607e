import { assign, candidates, type Judged } from './element-assignment.js';
import { FingerprintTable } from './fingerprint-table.js';
import type { IdentitySource, MatchDetails } from './element-identity.js';
import { similarityEvidence, SIMILARITY_THRESHOLD } from './element-similarity.js';
import { currentPageKey } from '../url-normalisation.js';

/**
 * Which head issue is which baseline issue: the gate's identity of issues, in two steps.
 *
 * 1. **Fingerprint, with multiplicity.** Equal fingerprints are the same rule, page and normalised
 *    selector. A fingerprint held once on each side pairs at once. One held several times on a side
 *    (masked generated names can make different elements share it) pairs its elements by similarity,
 *    so three against one are at most one existing and two new. Only fingerprints are needed for the
 *    first case, so a 50,000-issue scan is read lean.
 * 2. **Similarity** of what is left, within one rule and one normalised page (never across): every
 *    pair scoring at least SIMILARITY_THRESHOLD is a candidate, and candidates are taken greedily,
 *    best score first. Selector-less issues (page-level results) are counted by multiplicity only.
 *
 * Step 2 needs the issues' details (rule, page, selector, HTML), which the caller loads only for the
 * issues `fingerprintStep` names, and of those only for the ones on pages where both scans have such
 * issues (`keepSharedPages`, shared-pages.ts). Scans fingerprinted by another version skip step 1
 * (their keys differ) and are matched by similarity alone, so they stay comparable.
 */

export interface MatchIssue {
  fingerprint: string;
}

export type MatchKind = 'fingerprint' | 'similar' | 'none';

export interface SimilarMatch {
  readonly score: number;
  readonly evidence: string;
}

/** A pair taken in step 2: its score and sentence are worked out when read (an event lists a hundred). */
class PairedBySimilarity implements SimilarMatch {
  constructor(
    private readonly head: IdentitySource,
    private readonly baseline: IdentitySource,
    private readonly judged: Judged,
  ) {}

  get score(): number {
    return this.judged.similarity().score;
  }

  get evidence(): string {
    return similarityEvidence(this.head, this.baseline, this.judged.similarity());
  }
}

export interface IssueMatching {
  /** Per head issue, the index of its baseline issue, or -1 (new). */
  headToBaseline: Int32Array;
  /** Per baseline issue, the index of its head issue, or -1 (fixed). */
  baselineToHead: Int32Array;
  /** Per head issue matched in step 2, the score and the sentence that explains it. */
  similar: Map<number, SimilarMatch>;
}

export interface FingerprintStep {
  matching: IssueMatching;
  /** Head issues whose details step 2 needs (unmatched, or in a fingerprint shared unevenly). */
  headNeeds: number[];
  baselineNeeds: number[];
  /** Fingerprint groups with several issues on a side: pairs still to choose among them. */
  groups: Array<{ head: number[]; baseline: number[] }>;
}

/**
 * Baseline index of each fingerprint, or, for one held several times, `-(g + 2)` naming its group in
 * `groups` (kept as numbers: one lookup per issue is most of this step's cost on 50,000 issues).
 */
function baselineIndex(baseline: readonly string[]) {
  const index = new FingerprintTable(baseline);
  const groups: number[][] = [];
  const grouped = new Uint8Array(baseline.length);
  for (let j = 0; j < baseline.length; j++) {
    const seen = index.get(baseline[j]);
    if (seen === undefined) index.set(j, j);
    else if (seen >= 0) {
      index.set(j, -(groups.push([seen, j]) + 1));
      grouped[seen] = grouped[j] = 1;
    } else {
      groups[-seen - 2].push(j);
      grouped[j] = 1;
    }
  }
  return { index, groups, grouped };
}

const fingerprintsOf = (issues: readonly MatchIssue[] | readonly string[]): readonly string[] =>
  issues.length > 0 && typeof issues[0] !== 'string'
    ? (issues as readonly MatchIssue[]).map((x) => x.fingerprint)
    : (issues as readonly string[]);

/**
 * Step 1, from the issues or their fingerprints. With `compareFingerprints` false (another fingerprint
 * version), every issue goes to step 2.
 */
export function fingerprintStep(
  headIssues: readonly MatchIssue[] | readonly string[],
  baselineIssues: readonly MatchIssue[] | readonly string[],
  compareFingerprints = true,
): FingerprintStep {
  const head = fingerprintsOf(headIssues);
  const baseline = fingerprintsOf(baselineIssues);
  const matching: IssueMatching = {
    headToBaseline: new Int32Array(head.length).fill(-1),
    baselineToHead: new Int32Array(baseline.length).fill(-1),
    similar: new Map(),
  };
  const step: FingerprintStep = { matching, headNeeds: [], baselineNeeds: [], groups: [] };
  if (!compareFingerprints) {
    step.headNeeds = head.map((_, i) => i);
    step.baselineNeeds = baseline.map((_, i) => i);
    return step;
  }
  const base = baselineIndex(baseline);
  // The first head issue of each unique baseline fingerprint (in baselineToHead until paired; -2 marks
  // one that turned out shared unevenly); further ones, and those of repeated baseline fingerprints,
  // by baseline index or group.
  const first = matching.baselineToHead;
  const moreHeads = new Map<number, number[]>();
  const groupHeads: number[][] = base.groups.map(() => []);
  for (let i = 0; i < head.length; i++) {
    const b = base.index.get(head[i]);
    if (b === undefined) step.headNeeds.push(i);
    else if (b < 0) groupHeads[-b - 2].push(i);
    else if (first[b] < 0) first[b] = i;
    else {
      const more = moreHeads.get(b);
      if (more) more.push(i);
      else moreHeads.set(b, [i]);
    }
  }
  for (let j = 0; j < baseline.length; j++) {
    const h = first[j];
    if (h < 0) continue;
    const more = moreHeads.size > 0 ? moreHeads.get(j) : undefined;
    if (more) {
      first[j] = -2;
      step.groups.push({ head: [h, ...more], baseline: [j] });
    } else {
      matching.headToBaseline[h] = j;
    }
  }
  base.groups.forEach((members, g) => {
    if (groupHeads[g].length > 0) step.groups.push({ head: groupHeads[g], baseline: members });
  });
  for (const group of step.groups) {
    step.headNeeds.push(...group.head);
    step.baselineNeeds.push(...group.baseline);
  }
  for (let j = 0; j < baseline.length; j++) {
    // Unmatched and not in a group: a fingerprint the head does not have.
    if (first[j] === -1 && !base.grouped[j]) step.baselineNeeds.push(j);
  }
  for (const group of step.groups) if (group.baseline.length === 1) first[group.baseline[0]] = -1;
  base.groups.forEach((members, g) => {
    if (groupHeads[g].length === 0) step.baselineNeeds.push(...members);
  });
  // Without groups, both lists were built in index order.
  if (base.groups.length > 0 || step.groups.length > 0) {
    step.headNeeds.sort((x, y) => x - y);
    step.baselineNeeds.sort((x, y) => x - y);
  }
  return step;
}

const hasSelector = (i: number, details: ReadonlyMap<number, MatchDetails>) => !!details.get(i)!.selector;

interface Pool {
  head: number[];
  baseline: number[];
}

/**
 * The unpaired issues by rule and page, in the order the head's first issue of each appears; only
 * pages and rules the head has unpaired issues on (the others are fixed, whatever their details).
 * Pages are compared by the current address rule: a baseline recorded when `/docs/index.html` was a
 * page of its own pairs its issues with those of `/docs` (their fingerprints differ; their page is one).
 */
function pools(
  step: FingerprintStep,
  headDetails: ReadonlyMap<number, MatchDetails>,
  baselineDetails: ReadonlyMap<number, MatchDetails>,
): Pool[] {
  const { headToBaseline, baselineToHead } = step.matching;
  // By rule, then page: no key string built per issue.
  const byRule = new Map<string, Map<string, Pool>>();
  const all: Pool[] = [];
  for (const i of step.headNeeds) {
    const d = headDetails.get(i);
    if (!d || headToBaseline[i] >= 0) continue;
    let byPage = byRule.get(d.rule);
    if (!byPage) byRule.set(d.rule, (byPage = new Map<string, Pool>()));
    const page = currentPageKey(d.page);
    let p = byPage.get(page);
    if (!p) {
      byPage.set(page, (p = { head: [], baseline: [] }));
      all.push(p);
    }
    p.head.push(i);
  }
  for (const j of step.baselineNeeds) {
    const d = baselineDetails.get(j);
    if (d && baselineToHead[j] < 0) byRule.get(d.rule)?.get(currentPageKey(d.page))?.baseline.push(j);
  }
  return all;
}

/**
 * Step 2: settles the fingerprint groups, then pairs what is left by similarity within each rule and
 * page. `headDetails`/`baselineDetails` hold (at least) the issues step 1 named, by index.
 */
export function similarityStep(
  step: FingerprintStep,
  headDetails: ReadonlyMap<number, MatchDetails>,
  baselineDetails: ReadonlyMap<number, MatchDetails>,
): IssueMatching {
  const { matching } = step;
  const link = (x: number, y: number) => {
    matching.headToBaseline[x] = y;
    matching.baselineToHead[y] = x;
  };
  for (const group of step.groups) {
    // Generated names masked alike can give different elements one fingerprint (three inputs with
    // React ids): within the group, elements pair only when similar enough. Issues without a selector,
    // or whose details are unknown, pair by multiplicity in scan order.
    const known = (i: number, details: ReadonlyMap<number, MatchDetails>) => !!details.get(i)?.selector;
    const h = candidates(
      group.head.filter((i) => known(i, headDetails)),
      headDetails,
    );
    const b = candidates(
      group.baseline.filter((j) => known(j, baselineDetails)),
      baselineDetails,
    );
    assign(h, b, SIMILARITY_THRESHOLD, (x, y) => link(x.index, y.index));
    const hs = group.head.filter((i) => !known(i, headDetails));
    const bs = group.baseline.filter((j) => !known(j, baselineDetails));
    for (let k = 0; k < Math.min(hs.length, bs.length); k++) link(hs[k], bs[k]);
  }
  for (const p of pools(step, headDetails, baselineDetails)) {
    if (p.baseline.length === 0) continue;
    const h = candidates(
      p.head.filter((i) => hasSelector(i, headDetails)),
      headDetails,
    );
    const b = candidates(
      p.baseline.filter((j) => hasSelector(j, baselineDetails)),
      baselineDetails,
    );
    assign(h, b, SIMILARITY_THRESHOLD, (x, y, judged) => {
      link(x.index, y.index);
      matching.similar.set(x.index, new PairedBySimilarity(x.details, y.details, judged));
    });
    // Selector-less issues: by multiplicity (only reached when fingerprints were not compared).
    const hs = p.head.filter((i) => !hasSelector(i, headDetails));
    const bs = p.baseline.filter((j) => !hasSelector(j, baselineDetails));
    for (let k = 0; k < Math.min(hs.length, bs.length); k++) {
      link(hs[k], bs[k]);
      matching.similar.set(hs[k], {
        score: 1,
        evidence: 'A page-level result (no selector): counted by multiplicity.',
      });
    }
  }
  return matching;
}

/** Both steps at once, for callers that have every issue's details (tests, the drift corpus). */
export function matchIssues(
  head: ReadonlyArray<MatchIssue & MatchDetails>,
  baseline: ReadonlyArray<MatchIssue & MatchDetails>,
  compareFingerprints = true,
): IssueMatching {
  const step = fingerprintStep(head, baseline, compareFingerprints);
  const pick = (issues: ReadonlyArray<MatchDetails>, indices: number[]) =>
    new Map(indices.map((i) => [i, issues[i]] as const));
  return similarityStep(step, pick(head, step.headNeeds), pick(baseline, step.baselineNeeds));
}

/** How a head issue was classified. */
export function matchKind(matching: IssueMatching, headIndex: number): MatchKind {
  if (matching.headToBaseline[headIndex] < 0) return 'none';
  return matching.similar.has(headIndex) ? 'similar' : 'fingerprint';
}
