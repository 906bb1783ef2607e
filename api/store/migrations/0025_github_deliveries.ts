import type { Knex } from 'knex';

/**
 * GitHub publication travels the outbox: a `deploy.completed` message gets, besides its webhook
 * deliveries, one delivery whose target is `github` (the check run and the pull request comment). Such a
 * delivery, and its attempts, belong to no subscription.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.string('target', 16).notNullable().defaultTo('webhook');
    t.setNullable('subscription_id');
  });
  await knex.schema.alterTable('webhook_attempts', (t) => {
    t.setNullable('subscription_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('webhook_deliveries').whereNull('subscription_id').delete();
  await knex('webhook_attempts').whereNull('subscription_id').delete();
  await knex.schema.alterTable('webhook_attempts', (t) => {
    t.dropNullable('subscription_id');
  });
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropNullable('subscription_id');
    t.dropColumn('target');
  });
}
