import type { Knex } from 'knex';

/**
 * The org view read in two look-ups per site (docs/portfolio.md, "The organisation's view"): each kept
 * day also carries the site's new, fixed and regressions summed over every day up to it, so a range's
 * counts are the difference of two days' totals, and how its open issues changed since the site's day
 * before, so the org's series sums the range's days alone; an index that leads with the span's end finds
 * the org's open spans (the overdue counts) without reading its ended ones.
 */
const OPEN = ['critical', 'serious', 'moderate', 'minor', 'unknown'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('history_days', (t) => {
    t.integer('new_total').notNullable().defaultTo(0);
    t.integer('fixed_total').notNullable().defaultTo(0);
    t.integer('regressions_total').notNullable().defaultTo(0);
    for (const impact of OPEN) t.integer(`open_${impact}_change`).notNullable().defaultTo(0);
  });
  const site = 'partition by org, site_id order by day';
  await knex.raw(`
    update history_days set new_total = w.n, fixed_total = w.f, regressions_total = w.r,
      ${OPEN.map((i) => `open_${i}_change = w.${i}`).join(', ')}
    from (
      select org, site_id, day,
        sum(new_count) over (${site}) as n,
        sum(fixed_count) over (${site}) as f,
        sum(regressions) over (${site}) as r,
        ${OPEN.map((i) => `open_${i} - lag(open_${i}, 1, 0) over (${site}) as ${i}`).join(', ')}
      from history_days
    ) as w
    where history_days.org = w.org and history_days.site_id = w.site_id and history_days.day = w.day`);
  await knex.schema.alterTable('history_spans', (t) => {
    t.index(['org', 'ended_at', 'site_id', 'impact', 'due_from', 'opened_at'], 'history_spans_overdue');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('history_spans', (t) => {
    t.dropIndex([], 'history_spans_overdue');
  });
  await knex.schema.alterTable('history_days', (t) => {
    for (const impact of OPEN) t.dropColumn(`open_${impact}_change`);
    t.dropColumn('regressions_total');
    t.dropColumn('fixed_total');
    t.dropColumn('new_total');
  });
}
