import type { Knex } from 'knex';

/**
 * The built folder the CLI served for a scan (`--serve DIR`: its name and whether it was a single-page
 * app), as one JSON document on the scan and on a deploy event of it; null for every other scan and event.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.text('served');
  });
  await knex.schema.alterTable('deploys', (t) => {
    t.text('served');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('deploys', (t) => {
    t.dropColumn('served');
  });
  await knex.schema.alterTable('scans', (t) => {
    t.dropColumn('served');
  });
}
