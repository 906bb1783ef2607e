import type { WaivableIssue, WaiverMatcher } from './waiver-match.js';

/**
 * The deploy gate (docs/gate.md) as pure functions: which scan is the head, which is the
 * baseline, and — from the two scans' issues, the site's active waivers and the thresholds — the
 * decision with its reasons, counts and threshold table. No I/O: the service reads the evidence,
 * calls `evaluateGate`, and stores what it returns.
 */

export const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;
export type Impact = (typeof IMPACTS)[number];
export type ImpactKey = Impact | 'unknown';
export type IssueKind = 'violation' | 'incomplete';

// ---------------------------------------------------------------------------------------------------
// Thresholds

export const LIMIT_NAMES = ['max_critical', 'max_serious', 'max_moderate', 'max_minor', 'max_total'] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

/** Thresholds after every fallback: what the gate actually applied (stored with the event). */
export interface AppliedGateSettings {
  fail_on_critical: boolean;
  fail_on_serious: boolean;
  max_critical: number | null;
  max_serious: number | null;
  max_moderate: number | null;
  max_minor: number | null;
  max_total: number | null;
  new_only: boolean;
  include_incomplete: boolean;
}

export type GateSettingsLayer = { [K in keyof AppliedGateSettings]?: AppliedGateSettings[K] | null };

export const BUILT_IN_GATE_SETTINGS: AppliedGateSettings = {
  fail_on_critical: true,
  fail_on_serious: false,
  max_critical: null,
  max_serious: null,
  max_moderate: null,
  max_minor: null,
  max_total: null,
  new_only: true,
  include_incomplete: false,
};

/**
 * Request, then the site's `gate` defaults, then the built-in defaults. A field the request leaves
 * out falls through; a `max_*` the request sets to `null` is deliberately "not checked", even when
 * the site has a limit. A boolean set to null falls through (null is not a yes/no).
 */
export function resolveGateSettings(
  request: GateSettingsLayer | undefined,
  site: GateSettingsLayer | null | undefined,
): AppliedGateSettings {
  const out = { ...BUILT_IN_GATE_SETTINGS } as Record<keyof AppliedGateSettings, unknown>;
  for (const name of Object.keys(BUILT_IN_GATE_SETTINGS) as (keyof AppliedGateSettings)[]) {
    const isLimit = (LIMIT_NAMES as readonly string[]).includes(name);
    for (const layer of [request, site]) {
      const v = layer?.[name];
      if (v === undefined || (v === null && !isLimit)) continue;
      out[name] = v;
      break;
    }
  }
  return out as unknown as AppliedGateSettings;
}

// ---------------------------------------------------------------------------------------------------
// Head and baseline scans

export interface ScanRef {
  id: string;
  sha: string | null;
  branch: string | null;
  created_at: string;
  /** How its issues were fingerprinted; scans of different versions do not compare well. */
  fingerprint_version?: number;
}

export type BaselineStrategy = 'baseline_sha' | 'base_branch' | 'none';

export interface BaselineChoice {
  scan: ScanRef | null;
  strategy: BaselineStrategy;
  /** A sentence saying why this baseline (or none). */
  reason: string;
}

/** Newest first; ties broken by id so the choice is stable. */
function newest(a: ScanRef, b: ScanRef): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id < b.id ? 1 : -1;
}

/** The head scan: the latest scan of the site with that sha (a re-run of CI supersedes earlier ones). */
export function chooseHeadScan(scans: readonly ScanRef[], sha: string): ScanRef | null {
  const s = sha.toLowerCase();
  return [...scans].filter((x) => x.sha?.toLowerCase() === s).sort(newest)[0] ?? null;
}

/**
 * The baseline: the scan of `baseline_sha` when the request names one (if that commit has no scan
 * there is no baseline — we never silently compare with something else the caller did not ask for);
 * else the latest scan on the site's base branch created before the head scan with another sha;
 * else none, and every issue is new.
 */
export function chooseBaseline(input: {
  head: ScanRef;
  baselineSha?: string | null;
  baseBranch: string;
  candidates: readonly ScanRef[];
}): BaselineChoice {
  const choice = pickBaseline(input);
  const a = input.head.fingerprint_version;
  const b = choice.scan?.fingerprint_version;
  if (choice.scan && a !== undefined && b !== undefined && a !== b) {
    // Still compared (the caller asked, or it is the only history), but said plainly.
    choice.reason +=
      ` Its issues were fingerprinted with version ${b} and this commit's with version ${a}: ` +
      'unchanged issues may show as new and fixed until the baseline is re-scanned.';
  }
  return choice;
}

function pickBaseline(input: {
  head: ScanRef;
  baselineSha?: string | null;
  baseBranch: string;
  candidates: readonly ScanRef[];
}): BaselineChoice {
  const { head, baseBranch, candidates } = input;
  if (input.baselineSha) {
    const want = input.baselineSha.toLowerCase();
    const scan = [...candidates].filter((x) => x.sha?.toLowerCase() === want).sort(newest)[0] ?? null;
    return {
      scan,
      strategy: 'baseline_sha',
      reason: scan
        ? `The latest scan of baseline_sha ${want.slice(0, 12)}, as the request asked.`
        : `The request named baseline_sha ${want.slice(0, 12)}, but that commit has no scan: every issue counts as new.`,
    };
  }
  const headSha = head.sha?.toLowerCase() ?? null;
  const scan =
    [...candidates]
      .filter(
        (x) =>
          x.branch === baseBranch &&
          x.id !== head.id &&
          x.created_at < head.created_at &&
          (x.sha?.toLowerCase() ?? null) !== headSha,
      )
      .sort(newest)[0] ?? null;
  if (scan) {
    return {
      scan,
      strategy: 'base_branch',
      reason: `The latest scan on the base branch "${baseBranch}" before this commit's scan.`,
    };
  }
  return {
    scan: null,
    strategy: 'none',
    reason: `No scan on the base branch "${baseBranch}" before this commit's scan: every issue counts as new.`,
  };
}

// ---------------------------------------------------------------------------------------------------
// Evaluation

export interface GatePage {
  url: string;
  /** The normalised URL, when known; waiver globs are also tried on it. */
  normalizedUrl?: string | null;
}

export interface HeadIssue {
  /** The caller's handle for the issue (its row id), to fetch details of the few that are listed. */
  ref: number | string;
  fingerprint: string;
  rule: string;
  impact: Impact | null;
  kind: IssueKind;
  selector: string | null;
  page: GatePage;
}

export interface BaselineIssue {
  fingerprint: string;
  impact: Impact | null;
  kind: IssueKind;
}

export type ReasonCode =
  | 'no_scan'
  | 'critical_issues'
  | 'serious_issues'
  | 'max_critical_exceeded'
  | 'max_serious_exceeded'
  | 'max_moderate_exceeded'
  | 'max_minor_exceeded'
  | 'max_total_exceeded';

export interface GateReason {
  code: ReasonCode;
  message: string;
}

export interface CategoryCounts {
  new: number;
  existing: number;
  fixed: number;
  waived: number;
}

export interface GateCounts extends CategoryCounts {
  by_impact: Partial<Record<ImpactKey, CategoryCounts>> & Record<Impact, CategoryCounts>;
}

export interface ThresholdResult {
  name: 'fail_on_critical' | 'fail_on_serious' | LimitName;
  /** The most issues allowed (`fail_on_*` allows none, so 0). */
  limit: number;
  /** Unwaived issues it counted: new ones, or new and existing ones when `new_only` is false. */
  actual: number;
  passed: boolean;
}

export interface WaivedHeadIssue {
  issue: HeadIssue;
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
  newIssues: HeadIssue[];
  newIssuesTotal: number;
  /** Waived head issues, most severe first, at most `listCap` (their total is `counts.waived`). */
  waivedIssues: WaivedHeadIssue[];
}

export interface GateInput {
  siteId: string;
  sha: string;
  /** Null: no scan of this sha exists. */
  head: readonly HeadIssue[] | null;
  /** Null: no baseline (every head issue is new). */
  baseline: readonly BaselineIssue[] | null;
  waivers: WaiverMatcher;
  settings: AppliedGateSettings;
  /** How many new (and waived) issues to list; the totals are always exact. Default 100. */
  listCap?: number;
}

const SEVERITY: ImpactKey[] = [...IMPACTS, 'unknown'];

function zero(): CategoryCounts {
  return { new: 0, existing: 0, fixed: 0, waived: 0 };
}

function compareRefs(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Evaluates the gate. Classification is by fingerprint over every issue of both scans (a fingerprint
 * in the head and not in the baseline is new, in both is existing, only in the baseline is fixed);
 * what is counted then leaves out `incomplete` issues unless `include_incomplete`, and waived head
 * issues, which are listed but never counted. Fixed issues never fail the gate.
 */
export function evaluateGate(input: GateInput): GateEvaluation {
  const { settings } = input;
  const cap = input.listCap ?? 100;
  const counts: GateCounts = {
    ...zero(),
    by_impact: { critical: zero(), serious: zero(), moderate: zero(), minor: zero() },
  };
  const bucket = (impact: Impact | null): CategoryCounts => {
    const key: ImpactKey = impact ?? 'unknown';
    return (counts.by_impact[key] ??= zero());
  };

  if (input.head === null) {
    return {
      passed: false,
      reasons: [
        {
          code: 'no_scan',
          message:
            `No scan of site "${input.siteId}" exists for commit ${input.sha.slice(0, 12)}, so there is ` +
            'nothing to judge: submit the scan for this commit before triggering the gate.' +
            // Shas compare exactly: a short one never finds a scan submitted with the full sha.
            (input.sha.length < 40
              ? ` Scans are found by their exact sha, and this one has ${input.sha.length} characters: ` +
                'send the same (full) sha to both.'
              : ''),
        },
      ],
      counts,
      thresholds: [],
      newIssues: [],
      newIssuesTotal: 0,
      waivedIssues: [],
    };
  }

  const counted = (kind: IssueKind) => kind === 'violation' || settings.include_incomplete;

  // New and waived issues are bucketed by impact: the capped lists are "most severe first".
  const newByImpact: Record<ImpactKey, HeadIssue[]> = {
    critical: [],
    serious: [],
    moderate: [],
    minor: [],
    unknown: [],
  };
  const waivedByImpact: Record<ImpactKey, WaivedHeadIssue[]> = {
    critical: [],
    serious: [],
    moderate: [],
    minor: [],
    unknown: [],
  };
  const urls: string[] = [];
  const probe: WaivableIssue = { rule: '', selector: null, fingerprint: '', pageUrls: urls };
  const checkWaivers = input.waivers.size > 0;

  const countHead = (issue: HeadIssue, existing: boolean) => {
    if (!counted(issue.kind)) return;
    let waiverId: string | undefined;
    if (checkWaivers) {
      probe.rule = issue.rule;
      probe.selector = issue.selector;
      probe.fingerprint = issue.fingerprint;
      urls.length = 0;
      urls.push(issue.page.url);
      if (issue.page.normalizedUrl && issue.page.normalizedUrl !== issue.page.url) {
        urls.push(issue.page.normalizedUrl);
      }
      waiverId = input.waivers.match(probe);
    }
    const b = bucket(issue.impact);
    if (waiverId) {
      counts.waived++;
      b.waived++;
      waivedByImpact[issue.impact ?? 'unknown'].push({
        issue,
        waiverId,
        status: existing ? 'existing' : 'new',
      });
    } else if (existing) {
      counts.existing++;
      b.existing++;
    } else {
      counts.new++;
      b.new++;
      newByImpact[issue.impact ?? 'unknown'].push(issue);
    }
  };

  // Two sets of fingerprints and one pass over each scan.
  const baselineSet = new Set<string>();
  for (const b of input.baseline ?? []) baselineSet.add(b.fingerprint);
  const headSet = new Set<string>();
  for (const h of input.head) {
    headSet.add(h.fingerprint);
    countHead(h, baselineSet.has(h.fingerprint));
  }
  for (const b of input.baseline ?? []) {
    if (!counted(b.kind) || headSet.has(b.fingerprint)) continue;
    counts.fixed++;
    bucket(b.impact).fixed++;
  }

  const thresholds: ThresholdResult[] = [];
  const reasons: GateReason[] = [];
  const scope = settings.new_only ? 'new' : 'all';
  const tally = (impact: ImpactKey | 'total'): number => {
    if (impact === 'total') return settings.new_only ? counts.new : counts.new + counts.existing;
    const c = counts.by_impact[impact];
    if (!c) return 0;
    return settings.new_only ? c.new : c.new + c.existing;
  };
  const describe = (n: number, impact: Impact | null): string => {
    const what = plural(n, impact ? `${impact} issue` : 'issue');
    return scope === 'new'
      ? `${n === 0 ? 'No' : n} new ${what.replace(/^\d+ /, '')}`
      : `${what} (new and existing)`;
  };

  for (const impact of ['critical', 'serious'] as const) {
    const name = impact === 'critical' ? 'fail_on_critical' : 'fail_on_serious';
    if (!settings[name]) continue;
    const actual = tally(impact);
    const passed = actual === 0;
    thresholds.push({ name, limit: 0, actual, passed });
    if (!passed) {
      reasons.push({
        code: impact === 'critical' ? 'critical_issues' : 'serious_issues',
        message: `${describe(actual, impact)} found; ${name} allows none.`,
      });
    }
  }
  for (const name of LIMIT_NAMES) {
    const limit = settings[name];
    if (limit === null || limit === undefined) continue;
    const impact = name === 'max_total' ? 'total' : (name.slice(4) as Impact);
    const actual = tally(impact);
    const passed = actual <= limit;
    thresholds.push({ name, limit, actual, passed });
    if (!passed) {
      const subject = describe(actual, impact === 'total' ? null : impact);
      reasons.push({
        code: `${name}_exceeded` as ReasonCode,
        message: `${subject}${impact === 'total' ? ' in all' : ''} ${actual === 1 ? 'exceeds' : 'exceed'} ${name} (at most ${limit} allowed).`,
      });
    }
  }

  // Most severe first; within an impact, in the order the scan listed them (by `ref`).
  const take = <T>(buckets: Record<ImpactKey, T[]>, refOf: (item: T) => number | string): T[] => {
    const out: T[] = [];
    for (const impact of SEVERITY) {
      if (out.length >= cap) break;
      const sorted = buckets[impact].sort((a, b) => compareRefs(refOf(a), refOf(b)));
      out.push(...sorted.slice(0, cap - out.length));
    }
    return out;
  };

  return {
    passed: reasons.length === 0,
    reasons,
    counts,
    thresholds,
    newIssues: take(newByImpact, (x) => x.ref),
    newIssuesTotal: counts.new,
    waivedIssues: take(waivedByImpact, (x) => x.issue.ref),
  };
}
