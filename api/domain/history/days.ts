import type { Impact } from '../../../core/impact.js';
import type { HistorySpan } from './spans.js';

/** A site's figures for one day: its open issues at the day's end, and what happened during it. */
export interface HistoryDay {
  day: string;
  open: Record<Impact | 'unknown', number>;
  /** Open issues per rule at the day's end (rules with none are left out). */
  openByRule: Record<string, number>;
  new: number;
  fixed: number;
  regressions: number;
  /** Open issues whose page left the scans that day. */
  unscanned: number;
}

/** The UTC day of an ISO time. */
export function dayOf(at: string): string {
  return at.slice(0, 10);
}

/** The first instant after a UTC day (`2026-03-01` → `2026-03-02T00:00:00.000Z`). */
export function dayEnd(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
}

export function isOpenAt(span: Pick<HistorySpan, 'openedAt' | 'endedAt'>, at: string): boolean {
  return span.openedAt < at && (span.endedAt === null || span.endedAt >= at);
}

/**
 * The figures of each given day from the spans that touch them (every span open at some time on or
 * after the first day): one pass over the spans per day, so recomputing from a day onward costs the
 * spans of that stretch only.
 */
export function historyDays(days: readonly string[], spans: readonly HistorySpan[]): HistoryDay[] {
  return days.map((day) => {
    const end = dayEnd(day);
    const out: HistoryDay = {
      day,
      open: { critical: 0, serious: 0, moderate: 0, minor: 0, unknown: 0 },
      openByRule: {},
      new: 0,
      fixed: 0,
      regressions: 0,
      unscanned: 0,
    };
    for (const s of spans) {
      if (isOpenAt(s, end)) {
        out.open[s.impact ?? 'unknown']++;
        out.openByRule[s.rule] = (out.openByRule[s.rule] ?? 0) + 1;
      }
      if (dayOf(s.openedAt) === day) {
        if (s.startedBy === 'new') out.new++;
        if (s.startedBy === 'regression') out.regressions++;
      }
      if (s.endedAt !== null && dayOf(s.endedAt) === day) {
        if (s.endedBy === 'fixed') out.fixed++;
        else out.unscanned++;
      }
    }
    return out;
  });
}

/**
 * What the site's latest scan makes of its day: the open figures from the spans open after it, and
 * as counts only what it did (`changed`: the spans it opened, and the stored ones it ended), to be
 * added to the day's counts so far.
 */
export function latestScanDay(
  day: string,
  open: readonly HistorySpan[],
  changed: readonly HistorySpan[],
): HistoryDay {
  const [out] = historyDays([day], open);
  out.new = 0;
  out.regressions = 0;
  for (const s of changed) {
    if (s.id === undefined) {
      if (s.startedBy === 'new') out.new++;
      if (s.startedBy === 'regression') out.regressions++;
    } else if (s.endedBy === 'fixed') out.fixed++;
    else if (s.endedBy === 'unscanned') out.unscanned++;
  }
  return out;
}
