import type { Knex } from 'knex';
import type { HistoryDay } from '../../domain/history/days.js';
import { insertInChunks } from '../db.js';
import type { SiteRef } from './spans.js';

/** The stored figures of a site's days (docs/portfolio.md). */

interface DayRow {
  day: string;
  open_critical: number;
  open_serious: number;
  open_moderate: number;
  open_minor: number;
  open_unknown: number;
  open_by_rule: string;
  new_count: number;
  fixed_count: number;
  regressions: number;
  unscanned: number;
}

/**
 * What a kept day carries of the site's days before it: its new, fixed and regressions summed over every
 * day up to it, and how its open issues changed since the day before it (the org view's and series' reads).
 */
interface Carried {
  new_total: number;
  fixed_total: number;
  regressions_total: number;
  open_critical_change: number;
  open_serious_change: number;
  open_moderate_change: number;
  open_minor_change: number;
  open_unknown_change: number;
}

/** The last kept day before a day: its totals and its open issues. */
interface Before {
  totals: { new: number; fixed: number; regressions: number };
  open: HistoryDay['open'];
}

const IMPACT_KEYS = ['critical', 'serious', 'moderate', 'minor', 'unknown'] as const;

const NOTHING_BEFORE: Before = {
  totals: { new: 0, fixed: 0, regressions: 0 },
  open: { critical: 0, serious: 0, moderate: 0, minor: 0, unknown: 0 },
};

function carried(before: Before, d: HistoryDay): Carried {
  return {
    new_total: before.totals.new + d.new,
    fixed_total: before.totals.fixed + d.fixed,
    regressions_total: before.totals.regressions + d.regressions,
    open_critical_change: d.open.critical - before.open.critical,
    open_serious_change: d.open.serious - before.open.serious,
    open_moderate_change: d.open.moderate - before.open.moderate,
    open_minor_change: d.open.minor - before.open.minor,
    open_unknown_change: d.open.unknown - before.open.unknown,
  };
}

/** `d` as the day before the next one. */
function asBefore(c: Carried, d: HistoryDay): Before {
  return {
    totals: { new: c.new_total, fixed: c.fixed_total, regressions: c.regressions_total },
    open: d.open,
  };
}

async function dayBefore(trx: Knex.Transaction, s: SiteRef, day: string): Promise<Before> {
  const row = await trx('history_days')
    .where({ org: s.org, site_id: s.siteId })
    .andWhere('day', '<', day)
    .orderBy('day', 'desc')
    .first<Record<string, number> | undefined>(
      'new_total',
      'fixed_total',
      'regressions_total',
      ...IMPACT_KEYS.map((k) => `open_${k}`),
    );
  if (!row) return NOTHING_BEFORE;
  return {
    totals: {
      new: Number(row.new_total),
      fixed: Number(row.fixed_total),
      regressions: Number(row.regressions_total),
    },
    open: Object.fromEntries(IMPACT_KEYS.map((k) => [k, Number(row[`open_${k}`])])) as HistoryDay['open'],
  };
}

function dayFromRow(r: DayRow): HistoryDay {
  return {
    day: r.day,
    open: {
      critical: r.open_critical,
      serious: r.open_serious,
      moderate: r.open_moderate,
      minor: r.open_minor,
      unknown: r.open_unknown,
    },
    openByRule: JSON.parse(r.open_by_rule) as Record<string, number>,
    new: r.new_count,
    fixed: r.fixed_count,
    regressions: r.regressions,
    unscanned: r.unscanned,
  };
}

function dayRow(s: SiteRef, d: HistoryDay, kept: Carried) {
  return {
    ...kept,
    org: s.org,
    site_id: s.siteId,
    day: d.day,
    open_critical: d.open.critical,
    open_serious: d.open.serious,
    open_moderate: d.open.moderate,
    open_minor: d.open.minor,
    open_unknown: d.open.unknown,
    open_by_rule: JSON.stringify(d.openByRule),
    new_count: d.new,
    fixed_count: d.fixed,
    regressions: d.regressions,
    unscanned: d.unscanned,
  };
}

/**
 * Adds the site's latest scan to its day: the open figures (and their change since the day before) are
 * replaced by `scan`'s, its counts added to the day's so far and to the totals (a new day's start from the
 * day before it).
 */
export async function addScanToDay(trx: Knex.Transaction, s: SiteRef, scan: HistoryDay): Promise<void> {
  const add = (column: string, counts = column) =>
    trx.raw('??.?? + excluded.??', ['history_days', column, counts]);
  await trx('history_days')
    .insert(dayRow(s, scan, carried(await dayBefore(trx, s, scan.day), scan)))
    .onConflict(['org', 'site_id', 'day'])
    .merge({
      open_critical: trx.raw('excluded.open_critical'),
      open_serious: trx.raw('excluded.open_serious'),
      open_moderate: trx.raw('excluded.open_moderate'),
      open_minor: trx.raw('excluded.open_minor'),
      open_unknown: trx.raw('excluded.open_unknown'),
      open_by_rule: trx.raw('excluded.open_by_rule'),
      open_critical_change: trx.raw('excluded.open_critical_change'),
      open_serious_change: trx.raw('excluded.open_serious_change'),
      open_moderate_change: trx.raw('excluded.open_moderate_change'),
      open_minor_change: trx.raw('excluded.open_minor_change'),
      open_unknown_change: trx.raw('excluded.open_unknown_change'),
      new_count: add('new_count'),
      fixed_count: add('fixed_count'),
      regressions: add('regressions'),
      unscanned: add('unscanned'),
      new_total: add('new_total', 'new_count'),
      fixed_total: add('fixed_total', 'fixed_count'),
      regressions_total: add('regressions_total', 'regressions'),
    });
}

/** Replaces the site's days from `from` on with `days` (oldest first), carried on from the day before. */
export async function replaceDays(
  trx: Knex.Transaction,
  s: SiteRef,
  from: string,
  days: readonly HistoryDay[],
): Promise<void> {
  await trx('history_days').where({ org: s.org, site_id: s.siteId }).andWhere('day', '>=', from).delete();
  let before = await dayBefore(trx, s, from);
  await insertInChunks(
    trx,
    'history_days',
    days.map((d) => {
      const kept = carried(before, d);
      before = asBefore(kept, d);
      return dayRow(s, d, kept);
    }),
  );
}

/** The stored days from `from` to `to` (inclusive), oldest first, and the last one before `from`. */
export async function readDays(
  db: Knex,
  s: SiteRef,
  from: string,
  to: string,
): Promise<{ before: HistoryDay | undefined; days: HistoryDay[] }> {
  const where = { org: s.org, site_id: s.siteId };
  const before = await db('history_days')
    .where(where)
    .andWhere('day', '<', from)
    .orderBy('day', 'desc')
    .first<DayRow | undefined>();
  const rows = await db('history_days')
    .where(where)
    .andWhere('day', '>=', from)
    .andWhere('day', '<=', to)
    .orderBy('day')
    .select<DayRow[]>();
  return { before: before ? dayFromRow(before) : undefined, days: rows.map(dayFromRow) };
}
