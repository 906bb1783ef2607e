import type { Impact } from '../../../core/impact.js';

/**
 * A site's history as spans: each stretch of time one issue identity (its fingerprint, the gate's
 * identity) was open on the site's base branch. A span begins as `new` (never seen before), as a
 * `regression` (it was fixed, and is back) or as a `return` (its page had left the scans and came back
 * with it still there: not a regression, and its deadline keeps counting from before). It ends when a
 * full scan of its page no longer has it (`fixed`) or when a full scan no longer has its page
 * (`unscanned`: no longer scanned, never a fix).
 */

export type SpanStart = 'new' | 'regression' | 'return';
export type SpanEnd = 'fixed' | 'unscanned';

export interface HistorySpan {
  /** The stored row's id; absent for a span the replay has just opened. */
  id?: number;
  fingerprint: string;
  rule: string;
  impact: Impact | null;
  /** The page (with its viewport) the identity belongs to. */
  pageKey: string;
  openedAt: string;
  startedBy: SpanStart;
  /** Where its deadline counts from: its opening, or for a `return` the span it continues. */
  dueFrom: string;
  endedAt: string | null;
  endedBy: SpanEnd | null;
}

export interface ObservedIssue {
  rule: string;
  impact: Impact | null;
  pageKey: string;
}

/** One full scan of the base branch as history reads it: its time, its pages, its issues by identity. */
export interface HistoryScan {
  at: string;
  pageKeys: ReadonlySet<string>;
  issues: ReadonlyMap<string, ObservedIssue>;
}

/**
 * Applies scans, in time order, to the identities' latest spans (`latest`: per fingerprint its most
 * recent span, open or ended, as of just before the first scan). Returns the spans that changed: the
 * stored ones it ended (with their id) and the ones it opened.
 */
export function replayScans(latest: Map<string, HistorySpan>, scans: readonly HistoryScan[]): HistorySpan[] {
  const changed = new Set<HistorySpan>();
  for (const scan of scans) {
    for (const [fingerprint, issue] of scan.issues) {
      const last = latest.get(fingerprint);
      if (last && last.endedAt === null) continue;
      const startedBy: SpanStart = !last ? 'new' : last.endedBy === 'fixed' ? 'regression' : 'return';
      const span: HistorySpan = {
        fingerprint,
        ...issue,
        openedAt: scan.at,
        startedBy,
        dueFrom: startedBy === 'return' ? last!.dueFrom : scan.at,
        endedAt: null,
        endedBy: null,
      };
      latest.set(fingerprint, span);
      changed.add(span);
    }
    for (const span of latest.values()) {
      if (span.endedAt !== null || scan.issues.has(span.fingerprint)) continue;
      span.endedAt = scan.at;
      span.endedBy = scan.pageKeys.has(span.pageKey) ? 'fixed' : 'unscanned';
      changed.add(span);
    }
  }
  return [...changed];
}
