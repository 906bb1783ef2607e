import type { Knex } from 'knex';
import { IMPACTS, type Impact } from '../../../core/impact.js';
import type { DeadlineDays, DeadlineOverrides } from '../../domain/history/deadlines.js';

/**
 * The org view's reads (docs/portfolio.md), all from the kept figures: each site's day figures, its open
 * spans for the overdue counts, and the settings they need. One query per figure for every site at once.
 */

/** Which sites a read covers: all of the org's (undefined) or the given ones. */
export type Sites = readonly string[] | undefined;

export function ofSites<T extends Knex.QueryBuilder>(q: T, column: string, sites: Sites): T {
  if (sites !== undefined) q.whereIn(column, sites.length > 0 ? [...sites] : ['']);
  return q;
}

export async function orgSites(
  db: Knex,
  org: string,
  sites: Sites,
): Promise<Array<{ siteId: string; name: string | null }>> {
  const rows = await ofSites(db('sites').where({ org }), 'site_id', sites)
    .orderBy('site_id')
    .select<Array<{ site_id: string; name: string | null }>>('site_id', 'name');
  return rows.map((r) => ({ siteId: r.site_id, name: r.name }));
}

export type OpenCounts = Record<Impact | 'unknown', number>;

const OPEN_COLUMNS = ['open_critical', 'open_serious', 'open_moderate', 'open_minor', 'open_unknown'];
const TOTAL_COLUMNS = ['new_total', 'fixed_total', 'regressions_total'];

/** A site's figures at the end of a day: its open issues by impact, and its counts summed up to then. */
export interface FiguresAt {
  open: OpenCounts;
  totals: RangeCounts;
}

/**
 * Each site's figures at the end of `start` and of `end`: its last kept day on or before each, found by
 * one index look-up per site and day (not by grouping every kept day), none for a site with no day yet.
 */
export async function figuresAt(
  db: Knex,
  org: string,
  sites: Sites,
  days: { start: string; end: string },
): Promise<Map<string, { start?: FiguresAt; end?: FiguresAt }>> {
  const lastDay = (day: string) =>
    db.raw(
      '(select max(x.day) from history_days x where x.org = s.org and x.site_id = s.site_id and x.day <= ?)',
      [day],
    );
  const q = ofSites(db('sites as s').where('s.org', org), 's.site_id', sites);
  for (const [alias, day] of [
    ['a', days.start],
    ['z', days.end],
  ] as const)
    q.leftJoin(`history_days as ${alias}`, (j) => {
      j.on(`${alias}.org`, '=', 's.org')
        .andOn(`${alias}.site_id`, '=', 's.site_id')
        .andOn(`${alias}.day`, '=', lastDay(day));
    });
  const columns = [...OPEN_COLUMNS, ...TOTAL_COLUMNS];
  const rows = await q.select<Array<Record<string, string | number | null>>>([
    's.site_id',
    ...['a', 'z'].flatMap((alias) => columns.map((c) => `${alias}.${c} as ${alias}_${c}`)),
  ]);
  const at = (r: Record<string, string | number | null>, alias: 'a' | 'z'): FiguresAt | undefined =>
    r[`${alias}_open_critical`] === null
      ? undefined
      : {
          open: {
            critical: Number(r[`${alias}_open_critical`]),
            serious: Number(r[`${alias}_open_serious`]),
            moderate: Number(r[`${alias}_open_moderate`]),
            minor: Number(r[`${alias}_open_minor`]),
            unknown: Number(r[`${alias}_open_unknown`]),
          },
          totals: {
            new: Number(r[`${alias}_new_total`]),
            fixed: Number(r[`${alias}_fixed_total`]),
            regressions: Number(r[`${alias}_regressions_total`]),
          },
        };
  return new Map(rows.map((r) => [String(r.site_id), { start: at(r, 'a'), end: at(r, 'z') }]));
}

export interface RangeCounts {
  new: number;
  fixed: number;
  regressions: number;
}

/** The org's deadline days and every site's overrides. */
export async function orgDeadlineSettings(
  db: Knex,
  org: string,
): Promise<{ org: DeadlineDays | undefined; sites: Map<string, DeadlineOverrides> }> {
  const rows = await db('deadline_settings')
    .where({ org })
    .select<Array<{ site_id: string; days: string }>>('site_id', 'days');
  const sites = new Map<string, DeadlineOverrides>();
  let orgDays: DeadlineDays | undefined;
  for (const r of rows) {
    if (r.site_id === '') orgDays = JSON.parse(r.days) as DeadlineDays;
    else sites.set(r.site_id, JSON.parse(r.days) as DeadlineOverrides);
  }
  return { org: orgDays, sites };
}

/**
 * Per site, its issues open at `at` and past their due date then under `days`: each impact's cut-off is
 * one condition on `due_from`. Of the given sites, or all but `except`. The spans still open and those
 * ended since `at` are two look-ups of the index that leads with the end (an `or` would read them all).
 */
export async function overdueAt(
  db: Knex,
  org: string,
  scope: { sites: readonly string[] } | { except: readonly string[] },
  days: DeadlineDays,
  at: string,
): Promise<Map<string, number>> {
  const limits = IMPACTS.filter((i) => days[i] !== null);
  if (limits.length === 0) return new Map();
  const count = (ended: (q: Knex.QueryBuilder) => void) => {
    const q = db('history_spans').where({ org });
    ended(q);
    q.andWhere('opened_at', '<', at).andWhere((w) => {
      for (const i of limits) {
        const cutoff = new Date(Date.parse(at) - days[i]! * 86_400_000).toISOString();
        w.orWhere((x) => {
          x.where('impact', i).andWhere('due_from', '<', cutoff);
        });
      }
    });
    if ('sites' in scope) q.whereIn('site_id', scope.sites.length > 0 ? [...scope.sites] : ['']);
    else if (scope.except.length > 0) q.whereNotIn('site_id', [...scope.except]);
    return q
      .groupBy('site_id')
      .select<Array<{ site_id: string; n: string | number }>>('site_id', db.raw('count(*) as n'));
  };
  const [open, endedSince] = await Promise.all([
    count((q) => {
      q.whereNull('ended_at');
    }),
    count((q) => {
      q.where('ended_at', '>=', at);
    }),
  ]);
  const out = new Map<string, number>();
  for (const r of [...open, ...endedSince]) out.set(r.site_id, (out.get(r.site_id) ?? 0) + Number(r.n));
  return out;
}
