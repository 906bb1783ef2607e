import type { Knex } from 'knex';
import { IMPACTS } from '../../../core/impact.js';
import type { DeadlineDays } from '../../domain/history/deadlines.js';
import { dialectOf } from '../db.js';
import { ofSites, type OpenCounts, type RangeCounts, type Sites } from './figures.js';

/**
 * The org's series over a range (the console's organisation page), in a fixed number of queries whatever
 * the number of intervals: each day's change of the open issues and its counts summed over the sites (the
 * open issues at the range's start are figures.ts's `figuresAt`), and the days the open spans became
 * overdue and ended.
 */

const OPEN = ['critical', 'serious', 'moderate', 'minor', 'unknown'] as const;

export interface DayChange {
  day: string;
  /** How the sites' open issues changed since each one's kept day before. */
  change: OpenCounts;
  counts: RangeCounts;
}

/** Per kept day from `from` to `to` (inclusive), oldest first: the sites' changes and counts summed. */
export async function changesByDay(
  db: Knex,
  org: string,
  sites: Sites,
  range: { from: string; to: string },
): Promise<DayChange[]> {
  const rows = await ofSites(
    db('history_days').where({ org }).andWhere('day', '>=', range.from).andWhere('day', '<=', range.to),
    'site_id',
    sites,
  )
    .groupBy('day')
    .orderBy('day')
    .select<Array<Record<string, string | number>>>(
      'day',
      ...OPEN.map((k) => db.raw(`sum(open_${k}_change) as ${k}`)),
      db.raw('sum(new_count) as n'),
      db.raw('sum(fixed_count) as f'),
      db.raw('sum(regressions) as r'),
    );
  return rows.map((r) => ({
    day: String(r.day),
    change: Object.fromEntries(OPEN.map((k) => [k, Number(r[k])])) as OpenCounts,
    counts: { new: Number(r.n), fixed: Number(r.f), regressions: Number(r.r) },
  }));
}

/** A timestamp's day as a number of days since 1970-01-01 (null stays null). */
function dayNumber(db: Knex, column: string): string {
  return dialectOf(db) === 'postgres'
    ? `(substr(${column}, 1, 10)::date - date '1970-01-01')`
    : `cast(julianday(substr(${column}, 1, 10)) - 2440587.5 as integer)`;
}

/**
 * Of the spans open at some time from `fromStart` to `toEnd` under `days`: how many became overdue on
 * each day (counting from that day's end: opened by then, and their due date passed by then) and how
 * many of those ended on each day (no longer counted from that day's end). Days as numbers since
 * 1970-01-01. A span that ended before it was overdue is in neither.
 */
export async function overdueStartsAndEnds(
  db: Knex,
  org: string,
  scope: { sites: readonly string[] } | { except: readonly string[] },
  days: DeadlineDays,
  fromStart: string,
  toEnd: string,
): Promise<{ starts: Map<number, number>; ends: Map<number, number> }> {
  const limits = IMPACTS.filter((i) => days[i] !== null);
  const out = { starts: new Map<number, number>(), ends: new Map<number, number>() };
  if (limits.length === 0) return out;
  const allowed = `case impact ${limits.map(() => 'when ? then cast(? as integer)').join(' ')} end`;
  // The spans still open and those ended since `fromStart`: two look-ups of the index that leads with the
  // end, where an `or` would read every span of the org.
  const spansEnded = (ended: (q: Knex.QueryBuilder) => void) => {
    const q = db('history_spans').where({ org });
    ended(q);
    q.whereIn('impact', limits).andWhere('opened_at', '<=', toEnd);
    if ('sites' in scope) q.whereIn('site_id', scope.sites.length > 0 ? [...scope.sites] : ['']);
    else if (scope.except.length > 0) q.whereNotIn('site_id', [...scope.except]);
    return q.select(
      db.raw(`${dayNumber(db, 'opened_at')} as o`),
      db.raw(
        `${dayNumber(db, 'due_from')} + ${allowed} as d`,
        limits.flatMap((i) => [i, days[i]!]),
      ),
      db.raw(`${dayNumber(db, 'ended_at')} as e`),
    );
  };
  const spans = spansEnded((q) => {
    q.whereNull('ended_at');
  }).unionAll(
    spansEnded((q) => {
      q.where('ended_at', '>=', fromStart);
    }),
  );
  // Overdue from the later of its opening day and its due day; counted until the day it ended. One
  // pass: the spans counted by the day they became overdue and the day they ended (none while open).
  const rows = await db
    .from(db.from(spans.as('sp')).select(db.raw('case when o > d then o else d end as s'), 'e').as('b'))
    .whereRaw('(e is null or s < e)')
    .groupBy('s', 'e')
    .select<Array<{ s: string | number; e: string | number | null; n: string | number }>>(
      's',
      'e',
      db.raw('count(*) as n'),
    );
  const add = (map: Map<number, number>, day: number, n: number) => map.set(day, (map.get(day) ?? 0) + n);
  for (const r of rows) {
    add(out.starts, Number(r.s), Number(r.n));
    if (r.e !== null) add(out.ends, Number(r.e), Number(r.n));
  }
  return out;
}
