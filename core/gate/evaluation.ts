import { type AppliedGateSettings, type ImpactKey } from './settings.js';
import { IMPACTS, type Impact } from '../impact.js';
import {
  checkThresholds,
  noScanReason,
  type OpenShardedScan,
  type CategoryCounts,
  type GateCounts,
  type GateReason,
  type ThresholdResult,
} from './thresholds.js';
import {
  fingerprintStep,
  matchKind,
  similarityStep,
  type IssueMatching,
  type MatchKind,
  type SimilarMatch,
} from '../matching/matcher.js';
import { IMPACT_OF_CODE, issueList, type GateIssueList, type GateScanIssue } from './issues.js';
import { waiverFinder, type WaiverMatcher } from '../waivers/match.js';
import { comparesBaselineIssue, type CoveredPages } from './coverage.js';

/**
 * The deploy gate's decision (docs/gate.md) from two scans' issues, their matching (one pure
 * module decides which head issue is which baseline issue: matching/matcher.ts), the site's active
 * waivers and the thresholds. No I/O: the service reads the evidence and stores what this returns.
 */

export interface PairedIssue {
  issue: GateScanIssue;
  match: MatchKind;
  /** The baseline issue it was paired with (`fingerprint` and `similar`). */
  baseline: GateScanIssue | null;
  /** For a `similar` pair: its score and why it is the same element (worked out when read). */
  similar: SimilarMatch | null;
}

export interface WaivedHeadIssue extends PairedIssue {
  waiverId: string;
  /** Whether the issue would have been new or existing without the waiver. */
  status: 'new' | 'existing';
}

export interface GateEvaluation {
  passed: boolean;
  reasons: GateReason[];
  counts: GateCounts;
  thresholds: ThresholdResult[];
  /** The new (unwaived) issues, most severe first, at most `listCap`. */
  newIssues: GateScanIssue[];
  newIssuesTotal: number;
  /** Waived head issues, most severe first, at most `listCap` (their total is `counts.waived`). */
  waivedIssues: WaivedHeadIssue[];
  /** Existing issues paired by similarity (not fingerprint), most severe first, at most `listCap`. */
  similarIssues: PairedIssue[];
  similarIssuesTotal: number;
  /** With an engine change: how many issues differ on each side, and both sides by impact (none without one). */
  engineChange: EngineTally | null;
  /** Head issues that differ because the engine changed, most severe first, at most `listCap`. */
  engineChangedIssues: GateScanIssue[];
}

export interface GateInput {
  siteId: string;
  sha: string;
  /** Null: no scan of this sha exists. */
  head: readonly GateScanIssue[] | GateIssueList | null;
  /** Null: no baseline (every head issue is new). */
  baseline: readonly GateScanIssue[] | GateIssueList | null;
  /** Which head issue is which baseline issue; absent with no baseline. */
  matching?: IssueMatching;
  waivers: WaiverMatcher;
  settings: AppliedGateSettings;
  /**
   * The baseline was made with another engine: unpaired issues are engine changes, counted apart and
   * judged only with `engine_upgrade: fail` (engine.ts).
   */
  engineChanged?: boolean;
  /** How many issues each list shows; the totals are always exact. Default 100. */
  listCap?: number;
  /** With no head: the commit's sharded scan that is still open, which the reason names. */
  openScan?: OpenShardedScan;
  /** A partial head scan's pages: baseline issues elsewhere count nowhere (absent: a full scan). */
  covered?: CoveredPages;
}

const SEVERITY: ImpactKey[] = [...IMPACTS, 'unknown'];

function zero(): CategoryCounts {
  return { new: 0, existing: 0, fixed: 0, waived: 0 };
}

function compareRefs(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

type Buckets<T> = Record<ImpactKey, T[]>;
const buckets = <T>(): Buckets<T> => ({ critical: [], serious: [], moderate: [], minor: [], unknown: [] });

/** Most severe first; within an impact, in the order the scan listed them (by `ref`). */
function take<T>(from: Buckets<T>, cap: number, refOf: (item: T) => number | string): T[] {
  const out: T[] = [];
  for (const impact of SEVERITY) {
    if (out.length >= cap) break;
    const sorted = from[impact].sort((a, b) => compareRefs(refOf(a), refOf(b)));
    out.push(...sorted.slice(0, cap - out.length));
  }
  return out;
}

interface Tally {
  counts: GateCounts;
  /** Head indices. */
  newList: Buckets<number>;
  waivedList: Buckets<WaivedHeadIssue>;
  /** Head indices. */
  similarList: Buckets<number>;
  similarTotal: number;
  /** Head indices. */
  engineList: Buckets<number>;
  engine: EngineTally;
}

/** Issues that differ because the engine changed: head issues paired with none, baseline ones, by impact. */
export interface EngineTally {
  appeared: number;
  disappeared: number;
  byImpact: Partial<Record<ImpactKey, number>>;
}

function emptyCounts(): GateCounts {
  return { ...zero(), byImpact: { critical: zero(), serious: zero(), moderate: zero(), minor: zero() } };
}

const bucketOf = (counts: GateCounts, impact: Impact | null): CategoryCounts =>
  (counts.byImpact[impact ?? 'unknown'] ??= zero());

/** Counts and lists the head's issues (only what is counted), then the baseline's unmatched ones as fixed. */
function tallyIssues(
  head: GateIssueList,
  baseline: GateIssueList,
  matching: IssueMatching | undefined,
  input: GateInput,
): Tally {
  const t: Tally = {
    counts: emptyCounts(),
    newList: buckets(),
    waivedList: buckets(),
    similarList: buckets(),
    similarTotal: 0,
    engineList: buckets(),
    engine: { appeared: 0, disappeared: 0, byImpact: {} },
  };
  // Under an engine change, what is unpaired is the engine's doing: judged only when the site says so.
  const engine = input.engineChanged === true;
  const judged = !engine || input.settings.engine_upgrade === 'fail';
  const all = input.settings.include_incomplete;
  const waiverOf = waiverFinder(input.waivers);
  const anySimilar = !!matching && matching.similar.size > 0;
  // Plain loops over the columns, without a closure or an object per issue: this runs over every
  // issue of both scans.
  for (let i = 0; i < head.length; i++) {
    const code = head.codes[i];
    if (!all && code & 1) continue;
    const j = matching ? matching.headToBaseline[i] : -1;
    const similar = anySimilar && j >= 0 ? matching.similar.get(i) : undefined;
    const impact = IMPACT_OF_CODE[code >> 1];
    const key = impact ?? 'unknown';
    const b = bucketOf(t.counts, impact);
    if (waiverOf) {
      const issue = head.issue(i);
      const paired = j >= 0 ? baseline.issue(j) : null;
      const waiverId = waiverOf(issue, paired);
      if (waiverId) {
        t.counts.waived++;
        b.waived++;
        const view = pairedView(issue, i, matching, paired, similar);
        t.waivedList[key].push({ ...view, waiverId, status: paired ? 'existing' : 'new' });
        continue;
      }
    }
    if (j >= 0) {
      t.counts.existing++;
      b.existing++;
      if (similar) {
        t.similarTotal++;
        t.similarList[key].push(i);
      }
    } else {
      if (engine) {
        t.engine.appeared++;
        t.engine.byImpact[key] = (t.engine.byImpact[key] ?? 0) + 1;
        t.engineList[key].push(i);
        if (!judged) continue;
      }
      t.counts.new++;
      b.new++;
      t.newList[key].push(i);
    }
  }
  for (let j = 0; j < baseline.length; j++) {
    const code = baseline.codes[j];
    if ((!all && code & 1) || (matching && matching.baselineToHead[j] >= 0)) continue;
    if (!comparesBaselineIssue(input.covered, j)) continue; // a page the partial head scan did not cover
    const impact = IMPACT_OF_CODE[code >> 1];
    if (engine) {
      t.engine.disappeared++;
      t.engine.byImpact[impact ?? 'unknown'] = (t.engine.byImpact[impact ?? 'unknown'] ?? 0) + 1;
    }
    if (!judged) continue;
    t.counts.fixed++;
    bucketOf(t.counts, impact).fixed++;
  }
  return t;
}

function pairedView(
  issue: GateScanIssue,
  i: number,
  matching: IssueMatching | undefined,
  paired: GateScanIssue | null,
  similar: SimilarMatch | undefined,
): PairedIssue {
  return {
    issue,
    match: matching ? matchKind(matching, i) : 'none',
    baseline: paired,
    similar: similar ?? null,
  };
}

/**
 * Evaluates the gate. A head issue matched to a baseline issue is existing, else new; a baseline issue
 * matched to none is fixed (against a partial head scan, only on its pages). What is counted then leaves
 * out `incomplete` issues unless `include_incomplete` (they still take part in the matching), and waived
 * head issues, which are listed but never counted. Fixed issues never fail the gate.
 */
export function evaluateGate(input: GateInput): GateEvaluation {
  const cap = input.listCap ?? 100;
  if (input.head === null) {
    return {
      passed: false,
      reasons: [noScanReason(input.siteId, input.sha, input.openScan)],
      counts: emptyCounts(),
      thresholds: [],
      newIssues: [],
      newIssuesTotal: 0,
      waivedIssues: [],
      similarIssues: [],
      similarIssuesTotal: 0,
      engineChange: null,
      engineChangedIssues: [],
    };
  }
  const head = issueList(input.head);
  const baseline = issueList(input.baseline ?? []);
  // Without a matching given, fingerprints alone with multiplicity (what a caller without details gets).
  const matching =
    input.matching ??
    (input.baseline
      ? similarityStep(fingerprintStep(head.fingerprints, baseline.fingerprints), new Map(), new Map())
      : undefined);
  const t = tallyIssues(head, baseline, matching, input);
  const headRef = (i: number) => head.ref(i);
  const { thresholds, reasons } = checkThresholds(t.counts, input.settings);
  return {
    passed: reasons.length === 0,
    reasons,
    counts: t.counts,
    thresholds,
    newIssues: take(t.newList, cap, headRef).map((i) => head.issue(i)),
    newIssuesTotal: t.counts.new,
    waivedIssues: take(t.waivedList, cap, (w) => w.issue.ref),
    similarIssues: take(t.similarList, cap, headRef).map((i) => {
      const j = matching!.headToBaseline[i];
      return pairedView(head.issue(i), i, matching, baseline.issue(j), matching!.similar.get(i));
    }),
    similarIssuesTotal: t.similarTotal,
    engineChange: input.engineChanged ? t.engine : null,
    engineChangedIssues: take(t.engineList, cap, headRef).map((i) => head.issue(i)),
  };
}
