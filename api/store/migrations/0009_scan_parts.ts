import type { Knex } from 'knex';

/**
 * Scans sent in parts. A scan opened with `complete: false` is a `scans` row with status `open` until
 * its completion: its pages and issues are stored as the parts arrive (so memory is bounded by a part),
 * and every read of scans (lists, the gate, the VPAT) looks at `complete` rows only. An open scan
 * expires at `expires_at`. `scan_parts` records each part's Idempotency-Key in the same transaction as
 * its pages, so a retried part is stored once even when the server died before answering.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.string('status', 16).notNullable().defaultTo('complete');
    t.string('expires_at', 30);
    // Issues whose html was cut, counted across parts for the `html_truncated` warning.
    t.integer('html_truncated').notNullable().defaultTo(0);
    t.index(['status', 'expires_at']);
  });
  await knex.schema.createTable('scan_parts', (t) => {
    t.string('scan_id', 40).notNullable().references('scans.id').onDelete('CASCADE');
    t.string('part_key', 255).notNullable();
    t.string('request_hash', 64).notNullable();
    t.integer('first_page').notNullable();
    t.integer('page_count').notNullable();
    t.integer('issue_count').notNullable();
    t.string('created_at', 30).notNullable();
    t.primary(['scan_id', 'part_key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('scan_parts');
  await knex.schema.alterTable('scans', (t) => {
    t.dropIndex(['status', 'expires_at']);
    t.dropColumn('html_truncated');
    t.dropColumn('expires_at');
    t.dropColumn('status');
  });
}
