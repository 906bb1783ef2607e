import {
  elementIdentity,
  similarity,
  similarityEvidence,
  SIMILARITY_THRESHOLD,
  type ElementIdentity,
  type IdentitySource,
} from './element-identity.js';

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
 * issues `fingerprintStep` names. Scans fingerprinted by another version skip step 1 (their keys differ)
 * and are matched by similarity alone, so they stay comparable.
 */

export interface MatchIssue {
  fingerprint: string;
}

export interface MatchDetails extends IdentitySource {
  rule: string;
  /** The normalised page the issue was found on (its page key). */
  page: string;
}

export type MatchKind = 'fingerprint' | 'similar' | 'none';

export interface SimilarMatch {
  score: number;
  evidence: string;
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

/** Indices of each fingerprint, in scan order. */
function byFingerprint(issues: readonly MatchIssue[]): Map<string, number[] | number> {
  const map = new Map<string, number[] | number>();
  for (let i = 0; i < issues.length; i++) {
    const fp = issues[i].fingerprint;
    const seen = map.get(fp);
    if (seen === undefined) map.set(fp, i);
    else if (typeof seen === 'number') map.set(fp, [seen, i]);
    else seen.push(i);
  }
  return map;
}

/** Step 1. With `compareFingerprints` false (another fingerprint version), every issue goes to step 2. */
export function fingerprintStep(
  head: readonly MatchIssue[],
  baseline: readonly MatchIssue[],
  compareFingerprints = true,
): FingerprintStep {
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
  const base = byFingerprint(baseline);
  const headSeen = new Map<string, number[] | number>();
  for (let i = 0; i < head.length; i++) {
    const fp = head[i].fingerprint;
    const b = base.get(fp);
    if (b === undefined) {
      step.headNeeds.push(i);
      continue;
    }
    const seen = headSeen.get(fp);
    if (seen === undefined) headSeen.set(fp, i);
    else if (typeof seen === 'number') headSeen.set(fp, [seen, i]);
    else seen.push(i);
  }
  for (const [fp, h] of headSeen) {
    const b = base.get(fp)!;
    if (typeof h === 'number' && typeof b === 'number') {
      matching.headToBaseline[h] = b;
      matching.baselineToHead[b] = h;
      continue;
    }
    const group = { head: typeof h === 'number' ? [h] : h, baseline: typeof b === 'number' ? [b] : b };
    step.groups.push(group);
    step.headNeeds.push(...group.head);
    step.baselineNeeds.push(...group.baseline);
  }
  for (const [fp, b] of base) {
    if (headSeen.has(fp)) continue;
    if (typeof b === 'number') step.baselineNeeds.push(b);
    else step.baselineNeeds.push(...b);
  }
  step.headNeeds.sort((x, y) => x - y);
  step.baselineNeeds.sort((x, y) => x - y);
  return step;
}

interface Candidate {
  index: number;
  details: MatchDetails;
  identity: ElementIdentity;
  /** Position (0…1) among the group's issues on its side, in scan order. */
  order: number;
}

function candidates(indices: readonly number[], details: ReadonlyMap<number, MatchDetails>): Candidate[] {
  const out: Candidate[] = [];
  for (const index of indices) {
    const d = details.get(index);
    if (d) out.push({ index, details: d, identity: elementIdentity(d), order: 0.5 });
  }
  out.sort((a, b) => a.index - b.index);
  out.forEach((c, i) => (c.order = out.length === 1 ? 0.5 : i / (out.length - 1)));
  return out;
}

/** Beyond this many pairs in one rule and page, only elements with the same tag and snippet are compared. */
const PAIR_BUDGET = 250_000;

/** Pairs head and baseline candidates greedily by score (ties: closer order, then scan order). */
function assign(
  h: Candidate[],
  b: Candidate[],
  threshold: number,
  onPair: (x: Candidate, y: Candidate, score: number, same: string[]) => void,
): void {
  const pairs: Array<{ x: Candidate; y: Candidate; score: number; same: string[]; gap: number }> = [];
  const large = h.length * b.length > PAIR_BUDGET;
  for (const x of h) {
    for (const y of b) {
      if (large && x.identity.snippet !== y.identity.snippet) continue;
      const s = similarity(x.identity, y.identity, x.order, y.order);
      if (s.score < threshold) continue;
      pairs.push({ x, y, score: s.score, same: s.same, gap: Math.abs(x.order - y.order) });
    }
  }
  pairs.sort((p, q) => q.score - p.score || p.gap - q.gap || p.x.index - q.x.index || p.y.index - q.y.index);
  const usedH = new Set<number>();
  const usedB = new Set<number>();
  for (const p of pairs) {
    if (usedH.has(p.x.index) || usedB.has(p.y.index)) continue;
    usedH.add(p.x.index);
    usedB.add(p.y.index);
    onPair(p.x, p.y, p.score, p.same);
  }
}

const groupKey = (d: MatchDetails) => `${d.rule}\u0000${d.page}`;

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
  const pools = new Map<string, { head: number[]; baseline: number[] }>();
  const pool = (d: MatchDetails) => {
    const key = groupKey(d);
    let p = pools.get(key);
    if (!p) pools.set(key, (p = { head: [], baseline: [] }));
    return p;
  };
  for (const i of step.headNeeds) {
    const d = headDetails.get(i);
    if (d && matching.headToBaseline[i] < 0) pool(d).head.push(i);
  }
  for (const j of step.baselineNeeds) {
    const d = baselineDetails.get(j);
    if (d && matching.baselineToHead[j] < 0 && pools.has(groupKey(d))) pool(d).baseline.push(j);
  }
  for (const p of pools.values()) {
    if (p.head.length === 0 || p.baseline.length === 0) continue;
    const withSelector = (i: number, details: ReadonlyMap<number, MatchDetails>) =>
      !!details.get(i)!.selector;
    const h = candidates(
      p.head.filter((i) => withSelector(i, headDetails)),
      headDetails,
    );
    const b = candidates(
      p.baseline.filter((j) => withSelector(j, baselineDetails)),
      baselineDetails,
    );
    assign(h, b, SIMILARITY_THRESHOLD, (x, y, score, same) => {
      link(x.index, y.index);
      matching.similar.set(x.index, {
        score,
        evidence: similarityEvidence(x.details, y.details, { score, same }),
      });
    });
    // Selector-less issues: by multiplicity (only reached when fingerprints were not compared).
    const hs = p.head.filter((i) => !withSelector(i, headDetails));
    const bs = p.baseline.filter((j) => !withSelector(j, baselineDetails));
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
