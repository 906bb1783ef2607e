import type { Knex } from 'knex';

/**
 * The scans whose history is still to be kept (docs/portfolio.md, "Kept after the scan"): a full scan of
 * a site's base branch is queued in the transaction that completes it, and kept by the history job or by
 * the first read of that site's history, whichever comes first.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('history_queue', (t) => {
    t.string('scan_id', 64).primary();
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    /** When the scan stands in the history (its `scanned_at`, else its creation). */
    t.string('at', 30).notNullable();
    t.index(['org', 'site_id', 'at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('history_queue');
}
