import type { Knex } from 'knex';

/**
 * VPAT / ACR reports. A report is immutable once generated, so it is stored whole as JSON text (what
 * GET returns and every renderer reads); the columns beside it are what lookups and lists filter on.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('vpat_reports', (t) => {
    t.string('id', 40).primary();
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    t.string('scan_id', 40).notNullable();
    t.string('status', 16).notNullable();
    t.string('edition', 8).notNullable();
    t.string('wcag_version', 8).notNullable();
    t.string('level', 8).notNullable();
    t.text('report').notNullable();
    t.string('created_at', 30).notNullable();
    t.index(['org', 'site_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('vpat_reports');
}
