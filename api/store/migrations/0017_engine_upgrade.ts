import type { Knex } from 'knex';

/**
 * A deploy event's engine change (docs/gate.md#engine-upgrades): both engines, the policy applied, how many
 * issues differ and the listed ones, as one JSON document. Null when both scans were made with the same
 * engine, and for every event recorded before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('deploys', (t) => {
    t.text('engine_change');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('deploys', (t) => {
    t.dropColumn('engine_change');
  });
}
