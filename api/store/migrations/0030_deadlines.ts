import type { Knex } from 'knex';

/**
 * Deadlines per impact (docs/portfolio.md): the org's days per impact (site_id '') and a site's
 * overrides, as one JSON document each; `sla_breaches` records each issue whose deadline passed, once
 * per identity and start of its count, so `sla.breached` is written once whatever runs the sweep.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('deadline_settings', (t) => {
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    t.text('days').notNullable();
    t.string('updated_at', 30).notNullable();
    t.primary(['org', 'site_id']);
  });
  await knex.schema.createTable('sla_breaches', (t) => {
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    t.string('fingerprint', 64).notNullable();
    t.string('due_from', 30).notNullable();
    t.string('breached_at', 30).notNullable();
    t.primary(['org', 'site_id', 'fingerprint', 'due_from']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sla_breaches');
  await knex.schema.dropTable('deadline_settings');
}
