import { dayEnd, type HistoryDay } from './days.js';
import { dueAt, isOverdueAt, type DeadlineDays } from './deadlines.js';
import type { HistorySpan } from './spans.js';

export const INTERVALS = ['day', 'week', 'month'] as const;
export type HistoryInterval = (typeof INTERVALS)[number];

/** One interval of a site's history. */
export interface HistoryPoint {
  /** First and last day of the interval (UTC, inclusive), clipped to the range asked for. */
  start: string;
  end: string;
  /** Open issues at the interval's end (as of the last scan before it), by impact. */
  open: HistoryDay['open'];
  openTotal: number;
  new: number;
  fixed: number;
  regressions: number;
  /** Open issues past their due date at the interval's end (or now, for the interval under way). */
  overdue: number;
}

const DAY_MS = 86_400_000;

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The first day of the interval a day falls in (weeks begin on Monday, ISO 8601). */
export function intervalStart(day: string, interval: HistoryInterval): string {
  if (interval === 'day') return day;
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

function nextStart(start: string, interval: HistoryInterval): string {
  if (interval === 'day') return addDays(start, 1);
  if (interval === 'week') return addDays(start, 7);
  const d = new Date(`${start}T00:00:00Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}

/** The intervals from `from` to `to` (days, inclusive), the first and last clipped to the range. */
export function intervalsOf(
  from: string,
  to: string,
  interval: HistoryInterval,
): Array<{ start: string; end: string }> {
  const out: Array<{ start: string; end: string }> = [];
  for (let start = from; start <= to;) {
    const next = nextStart(intervalStart(start, interval), interval);
    out.push({ start, end: next <= to ? addDays(next, -1) : to });
    start = next;
  }
  return out;
}

/**
 * The series from `from` to `to` (days, inclusive): `days` are the stored days of the range, oldest
 * first, with `before` the last stored day before it (what was open when the range begins); `spans`
 * every span open at some time in the range, for the overdue counts under today's deadlines.
 */
export function historySeries(
  range: { from: string; to: string; interval: HistoryInterval; now: string },
  before: HistoryDay | undefined,
  days: readonly HistoryDay[],
  spans: readonly HistorySpan[],
  deadlines: DeadlineDays,
): HistoryPoint[] {
  const points: HistoryPoint[] = [];
  // Each span's due date once, not once per interval: a year by day is 365 intervals.
  const due = spans.map((s) => ({ s, due: dueAt(s, deadlines) })).filter((d) => d.due !== null);
  let carried = before?.open ?? { critical: 0, serious: 0, moderate: 0, minor: 0, unknown: 0 };
  let i = 0;
  for (const { start, end } of intervalsOf(range.from, range.to, range.interval)) {
    const point = { start, end, new: 0, fixed: 0, regressions: 0 };
    for (; i < days.length && days[i].day <= end; i++) {
      point.new += days[i].new;
      point.fixed += days[i].fixed;
      point.regressions += days[i].regressions;
      carried = days[i].open;
    }
    const at = dayEnd(end) < range.now ? dayEnd(end) : range.now;
    points.push({
      ...point,
      open: { ...carried },
      openTotal: Object.values(carried).reduce((a, b) => a + b, 0),
      overdue: due.filter((d) => isOverdueAt(d.s, deadlines, at, d.due)).length,
    });
  }
  return points;
}
