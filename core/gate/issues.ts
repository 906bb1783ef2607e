import { type IssueKind } from '../impact.js';
import { IMPACTS, type Impact } from '../impact.js';

export interface GatePage {
  url: string;
  /** The normalised URL, when known; waiver globs are also tried on it. */
  normalizedUrl?: string | null;
}

/** An issue of the head or the baseline scan, as lean as the decision allows. */
export interface GateScanIssue {
  /** The caller's handle for the issue (its row id), to fetch details of the few that are listed. */
  ref: number | string;
  fingerprint: string;
  /** Rule, selector and page are filled in only where a waiver could need them ('' and null otherwise). */
  rule: string;
  impact: Impact | null;
  kind: IssueKind;
  selector: string | null;
  page: GatePage;
}

/**
 * A scan's issues as the gate's evaluation reads them: columns (fingerprint; impact and kind as one
 * small code; row id), with an object built only for an issue an event lists or a waiver may cover.
 * Read as objects, a trigger on two large scans kept every issue alive as an object, and garbage
 * collection copying them took a large share of the trigger's CPU time (bench/README.md).
 */
export interface GateIssueList {
  readonly length: number;
  readonly fingerprints: readonly string[];
  /** Per issue: its impact's rank in IMPACTS (4 for none) × 2, + 1 when incomplete. */
  readonly codes: Uint8Array;
  /** The caller's handle for issue `i` (its row id). */
  ref(i: number): number | string;
  /** Issue `i` as an object. */
  issue(i: number): GateScanIssue;
}

export const IMPACT_OF_CODE: ReadonlyArray<Impact | null> = [...IMPACTS, null];

export function issueCode(impact: Impact | null, kind: IssueKind): number {
  const rank = impact === null ? -1 : IMPACTS.indexOf(impact);
  return (rank < 0 ? 4 : rank) * 2 + (kind === 'incomplete' ? 1 : 0);
}

/** What a waiver may need of an issue: known for the rules active waivers name, and compared issues. */
export interface WaiverFields {
  rule: string;
  selector: string | null;
  page: GatePage;
}

const NO_PAGE: GatePage = { url: '' };

/** Issues as columns; `issue(i)` builds a new object on each call. */
export class IssueColumns implements GateIssueList {
  /** By index, for the issues whose rule, selector and page are known ('' and null otherwise). */
  readonly fields = new Map<number, WaiverFields>();

  constructor(
    readonly fingerprints: readonly string[],
    readonly refs: Float64Array,
    readonly codes: Uint8Array,
    /** Per issue: its page's index in the scan. */
    readonly pages: Int32Array,
  ) {}

  get length(): number {
    return this.fingerprints.length;
  }

  ref(i: number): number {
    return this.refs[i];
  }

  issue(i: number): GateScanIssue {
    const code = this.codes[i];
    const f = this.fields.get(i);
    return {
      ref: this.refs[i],
      fingerprint: this.fingerprints[i],
      rule: f?.rule ?? '',
      impact: IMPACT_OF_CODE[code >> 1],
      kind: code & 1 ? 'incomplete' : 'violation',
      selector: f?.selector ?? null,
      page: f?.page ?? NO_PAGE,
    };
  }
}

/** Issue objects as a list (the objects themselves are what `issue(i)` returns). */
export function issueList(issues: readonly GateScanIssue[] | GateIssueList): GateIssueList {
  if (!isArray(issues)) return issues;
  const codes = new Uint8Array(issues.length);
  for (let i = 0; i < issues.length; i++) codes[i] = issueCode(issues[i].impact, issues[i].kind);
  return {
    length: issues.length,
    fingerprints: issues.map((x) => x.fingerprint),
    codes,
    ref: (i) => issues[i].ref,
    issue: (i) => issues[i],
  };
}

function isArray(x: readonly GateScanIssue[] | GateIssueList): x is readonly GateScanIssue[] {
  return Array.isArray(x);
}
