import { IMPACTS, type Impact } from '../../../core/impact.js';
import type { HistorySpan } from './spans.js';

/** Days allowed to fix an open issue, per impact; null: no deadline. */
export type DeadlineDays = Record<Impact, number | null>;

/** A site's overrides of its org's deadlines: an impact left out follows the org. */
export type DeadlineOverrides = Partial<DeadlineDays>;

/** The deadlines of an org that set none. */
export const DEFAULT_DEADLINES: DeadlineDays = { critical: 30, serious: 60, moderate: 90, minor: null };

const DAY_MS = 86_400_000;

/** A site's deadlines: its overrides over its org's days over the defaults. */
export function effectiveDeadlines(
  org: DeadlineDays | undefined,
  site: DeadlineOverrides | undefined,
): DeadlineDays {
  const base = org ?? DEFAULT_DEADLINES;
  return Object.fromEntries(
    IMPACTS.map((i) => [i, site && i in site ? (site[i] ?? null) : base[i]]),
  ) as DeadlineDays;
}

/** When an issue is due: its count's start plus its impact's days; null without a deadline. */
export function dueAt(span: Pick<HistorySpan, 'impact' | 'dueFrom'>, days: DeadlineDays): string | null {
  const allowed = span.impact ? days[span.impact] : null;
  return allowed === null ? null : new Date(Date.parse(span.dueFrom) + allowed * DAY_MS).toISOString();
}

/** Whole days since an issue's count started. */
export function ageDays(span: Pick<HistorySpan, 'dueFrom'>, now: string): number {
  return Math.max(0, Math.floor((Date.parse(now) - Date.parse(span.dueFrom)) / DAY_MS));
}

/** Open at `at` and past its due date then (`due`: its `dueAt`, when the caller has it already). */
export function isOverdueAt(
  span: HistorySpan,
  days: DeadlineDays,
  at: string,
  due: string | null = dueAt(span, days),
): boolean {
  return due !== null && due < at && span.openedAt < at && (span.endedAt === null || span.endedAt >= at);
}
