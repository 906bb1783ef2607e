import type { Knex } from 'knex';

/**
 * Deploy events list the existing issues the matcher paired by similarity (their fingerprint changed
 * but their element did not), with the exact count. Events recorded before have none: '[]' and 0.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('deploys', (t) => {
    t.text('similar_issues').notNullable().defaultTo('[]');
    t.integer('similar_issues_total').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('deploys', (t) => {
    t.dropColumn('similar_issues');
    t.dropColumn('similar_issues_total');
  });
}
