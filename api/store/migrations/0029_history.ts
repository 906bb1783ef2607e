import type { Knex } from 'knex';

/**
 * A site's history (docs/portfolio.md), kept as base-branch full scans complete rather than read from
 * every scan: `scans.scanned_at` is when a scan was taken (a past time for imported history; null for
 * scans stored before, read as their creation time). `history_spans` holds each stretch of time an
 * issue identity (fingerprint) was open on the site, with how it began and ended; `history_days` the
 * figures of each day a scan counted on, drawn from the spans.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.string('scanned_at', 30);
  });
  await knex.schema.createTable('history_spans', (t) => {
    t.bigIncrements('id').primary();
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    t.string('fingerprint', 64).notNullable();
    t.string('rule', 200).notNullable();
    t.string('impact', 16);
    t.text('page_key').notNullable();
    t.string('opened_at', 30).notNullable();
    t.string('started_by', 16).notNullable();
    t.string('due_from', 30).notNullable();
    t.string('ended_at', 30);
    t.string('ended_by', 16);
    t.index(['org', 'site_id', 'fingerprint', 'opened_at'], 'history_spans_identity');
    t.index(['org', 'site_id', 'ended_at'], 'history_spans_open');
  });
  await knex.schema.createTable('history_days', (t) => {
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    t.string('day', 10).notNullable();
    t.integer('open_critical').notNullable();
    t.integer('open_serious').notNullable();
    t.integer('open_moderate').notNullable();
    t.integer('open_minor').notNullable();
    t.integer('open_unknown').notNullable();
    t.text('open_by_rule').notNullable();
    t.integer('new_count').notNullable();
    t.integer('fixed_count').notNullable();
    t.integer('regressions').notNullable();
    t.integer('unscanned').notNullable();
    t.primary(['org', 'site_id', 'day']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('history_days');
  await knex.schema.dropTable('history_spans');
  await knex.schema.alterTable('scans', (t) => {
    t.dropColumn('scanned_at');
  });
}
