import type { Knex } from 'knex';

/**
 * The viewport a page was scanned at (`390x844`, `iPhone 13`), as the scan body named it: one URL scanned at
 * two viewports is two pages of the scan, and the gate pairs each with the baseline's page of the same URL
 * and viewport. NULL: the one default viewport (every page stored before, and pages that name none).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scan_pages', (t) => {
    t.string('viewport', 100);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scan_pages', (t) => {
    t.dropColumn('viewport');
  });
}
