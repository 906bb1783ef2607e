import type { Knex } from 'knex';

/**
 * What a scan covers (docs/gate.md, "Partial scans"): `full`, every scan stored before included, or
 * `partial`, compared on its own pages only and never a baseline. A deploy event of a partial head scan
 * records the pages it compared, as one JSON document; null for a full one and every event before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.string('scope', 16).notNullable().defaultTo('full');
  });
  await knex.schema.alterTable('deploys', (t) => {
    t.text('coverage');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('deploys', (t) => {
    t.dropColumn('coverage');
  });
  await knex.schema.alterTable('scans', (t) => {
    t.dropColumn('scope');
  });
}
