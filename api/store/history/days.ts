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

/** The site's new, fixed and regressions summed over every day up to a day, kept with that day. */
interface Totals {
  new_total: number;
  fixed_total: number;
  regressions_total: number;
}

const NO_TOTALS: Totals = { new_total: 0, fixed_total: 0, regressions_total: 0 };

function totalsAfter(before: Totals, d: HistoryDay): Totals {
  return {
    new_total: before.new_total + d.new,
    fixed_total: before.fixed_total + d.fixed,
    regressions_total: before.regressions_total + d.regressions,
  };
}

async function totalsBefore(trx: Knex.Transaction, s: SiteRef, day: string): Promise<Totals> {
  const row = await trx('history_days')
    .where({ org: s.org, site_id: s.siteId })
    .andWhere('day', '<', day)
    .orderBy('day', 'desc')
    .first<Totals | undefined>('new_total', 'fixed_total', 'regressions_total');
  return row
    ? {
        new_total: Number(row.new_total),
        fixed_total: Number(row.fixed_total),
        regressions_total: Number(row.regressions_total),
      }
    : NO_TOTALS;
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

function dayRow(s: SiteRef, d: HistoryDay, totals: Totals) {
  return {
    ...totals,
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
 * Adds the site's latest scan to its day: the open figures are replaced by `scan`'s, its counts added to
 * the day's so far and to the totals (a new day's start from the day before it).
 */
export async function addScanToDay(trx: Knex.Transaction, s: SiteRef, scan: HistoryDay): Promise<void> {
  const add = (column: string, counts = column) =>
    trx.raw('??.?? + excluded.??', ['history_days', column, counts]);
  await trx('history_days')
    .insert(dayRow(s, scan, totalsAfter(await totalsBefore(trx, s, scan.day), scan)))
    .onConflict(['org', 'site_id', 'day'])
    .merge({
      open_critical: trx.raw('excluded.open_critical'),
      open_serious: trx.raw('excluded.open_serious'),
      open_moderate: trx.raw('excluded.open_moderate'),
      open_minor: trx.raw('excluded.open_minor'),
      open_unknown: trx.raw('excluded.open_unknown'),
      open_by_rule: trx.raw('excluded.open_by_rule'),
      new_count: add('new_count'),
      fixed_count: add('fixed_count'),
      regressions: add('regressions'),
      unscanned: add('unscanned'),
      new_total: add('new_total', 'new_count'),
      fixed_total: add('fixed_total', 'fixed_count'),
      regressions_total: add('regressions_total', 'regressions'),
    });
}

/** Replaces the site's days from `from` on with `days` (oldest first), their totals counted on from the day before. */
export async function replaceDays(
  trx: Knex.Transaction,
  s: SiteRef,
  from: string,
  days: readonly HistoryDay[],
): Promise<void> {
  await trx('history_days').where({ org: s.org, site_id: s.siteId }).andWhere('day', '>=', from).delete();
  let totals = await totalsBefore(trx, s, from);
  await insertInChunks(
    trx,
    'history_days',
    days.map((d) => dayRow(s, d, (totals = totalsAfter(totals, d)))),
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
