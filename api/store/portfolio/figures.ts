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

/** Each site's open issues by impact at the end of `day`: its last kept day on or before it. */
export async function openAtDay(
  db: Knex,
  org: string,
  sites: Sites,
  day: string,
): Promise<Map<string, OpenCounts>> {
  const last = ofSites(db('history_days').where({ org }).andWhere('day', '<=', day), 'site_id', sites)
    .groupBy('site_id')
    .select('site_id', db.raw('max(day) as day'));
  const rows = await db('history_days as d')
    .join(last.as('m'), (j) => {
      j.on('d.site_id', '=', 'm.site_id').andOn('d.day', '=', 'm.day');
    })
    .where('d.org', org)
    .select<Array<Record<string, string | number>>>(
      'd.site_id',
      'd.open_critical',
      'd.open_serious',
      'd.open_moderate',
      'd.open_minor',
      'd.open_unknown',
    );
  return new Map(
    rows.map((r) => [
      String(r.site_id),
      {
        critical: Number(r.open_critical),
        serious: Number(r.open_serious),
        moderate: Number(r.open_moderate),
        minor: Number(r.open_minor),
        unknown: Number(r.open_unknown),
      },
    ]),
  );
}

export interface RangeCounts {
  new: number;
  fixed: number;
  regressions: number;
}

/**
 * The new, fixed and regressions from `from` to `to` (days, inclusive), summed per site (the view) or per
 * day (the series).
 */
export async function countsInRange(
  db: Knex,
  org: string,
  sites: Sites,
  range: { from: string; to: string; by: 'site_id' | 'day' },
): Promise<Map<string, RangeCounts>> {
  const rows = await ofSites(
    db('history_days').where({ org }).andWhere('day', '>=', range.from).andWhere('day', '<=', range.to),
    'site_id',
    sites,
  )
    .groupBy(range.by)
    .select<Array<{ key: string; n: string | number; f: string | number; r: string | number }>>(
      `${range.by} as key`,
      db.raw('sum(new_count) as n'),
      db.raw('sum(fixed_count) as f'),
      db.raw('sum(regressions) as r'),
    );
  return new Map(
    rows.map((r) => [r.key, { new: Number(r.n), fixed: Number(r.f), regressions: Number(r.r) }]),
  );
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
 * one condition on `due_from`. Of the given sites, or all but `except`.
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
  const q = db('history_spans')
    .where({ org })
    .andWhere('opened_at', '<', at)
    .andWhere((w) => {
      w.whereNull('ended_at').orWhere('ended_at', '>=', at);
    })
    .andWhere((w) => {
      for (const i of limits) {
        const cutoff = new Date(Date.parse(at) - days[i]! * 86_400_000).toISOString();
        w.orWhere((x) => {
          x.where('impact', i).andWhere('due_from', '<', cutoff);
        });
      }
    });
  if ('sites' in scope) q.whereIn('site_id', scope.sites.length > 0 ? [...scope.sites] : ['']);
  else if (scope.except.length > 0) q.whereNotIn('site_id', [...scope.except]);
  const rows = await q
    .groupBy('site_id')
    .select<Array<{ site_id: string; n: string | number }>>('site_id', db.raw('count(*) as n'));
  return new Map(rows.map((r) => [r.site_id, Number(r.n)]));
}
