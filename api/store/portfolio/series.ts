import type { Knex } from 'knex';
import { IMPACTS } from '../../../core/impact.js';
import type { DeadlineDays } from '../../domain/history/deadlines.js';
import { dialectOf } from '../db.js';
import { ofSites, type OpenCounts, type Sites } from './figures.js';

/**
 * The org's series over a range (the console's organisation page), in a fixed number of queries whatever
 * the number of intervals: each day's change of the open issues summed over the sites (the counts by day
 * are figures.ts's `countsByDay`), and the days the open spans became overdue and ended.
 */

const OPEN = ['critical', 'serious', 'moderate', 'minor', 'unknown'] as const;

/**
 * Per day up to `to`, how much the open issues of the sites changed (each site's day figures less its
 * previous day's): summed from the first day, the org's open issues at any day's end.
 */
export async function openChangesByDay(
  db: Knex,
  org: string,
  sites: Sites,
  to: string,
): Promise<Array<{ day: string; change: OpenCounts }>> {
  const lagged = ofSites(
    db('history_days').where({ org }).andWhere('day', '<=', to),
    'site_id',
    sites,
  ).select(
    'day',
    ...OPEN.map((k) => `open_${k}`),
    ...OPEN.map((k) => db.raw(`lag(open_${k}, 1, 0) over (partition by site_id order by day) as prev_${k}`)),
  );
  const rows = await db
    .from(lagged.as('d'))
    .groupBy('day')
    .orderBy('day')
    .select<Array<Record<string, string | number>>>(
      'day',
      ...OPEN.map((k) => db.raw(`sum(open_${k} - prev_${k}) as ${k}`)),
    );
  return rows.map((r) => ({
    day: String(r.day),
    change: Object.fromEntries(OPEN.map((k) => [k, Number(r[k])])) as OpenCounts,
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
  const spans = db('history_spans')
    .where({ org })
    .whereIn('impact', limits)
    .andWhere('opened_at', '<=', toEnd)
    .andWhere((w) => {
      w.whereNull('ended_at').orWhere('ended_at', '>=', fromStart);
    });
  if ('sites' in scope) spans.whereIn('site_id', scope.sites.length > 0 ? [...scope.sites] : ['']);
  else if (scope.except.length > 0) spans.whereNotIn('site_id', [...scope.except]);
  spans.select(
    db.raw(`${dayNumber(db, 'opened_at')} as o`),
    db.raw(
      `${dayNumber(db, 'due_from')} + ${allowed} as d`,
      limits.flatMap((i) => [i, days[i]!]),
    ),
    db.raw(`${dayNumber(db, 'ended_at')} as e`),
  );
  // Overdue from the later of its opening day and its due day; counted until the day it ended.
  const counted = () =>
    db
      .from(
        db.from(spans.clone().as('sp')).select(db.raw('case when o > d then o else d end as s'), 'e').as('b'),
      )
      .whereRaw('(e is null or s < e)');
  type Row = { day: string | number; n: string | number };
  const [starts, ends] = await Promise.all([
    counted().groupBy('s').select<Row[]>(db.raw('s as day'), db.raw('count(*) as n')),
    counted().whereNotNull('e').groupBy('e').select<Row[]>(db.raw('e as day'), db.raw('count(*) as n')),
  ]);
  for (const r of starts) out.starts.set(Number(r.day), Number(r.n));
  for (const r of ends) out.ends.set(Number(r.day), Number(r.n));
  return out;
}
