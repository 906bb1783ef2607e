import type { Knex } from 'knex';

/**
 * Tenancy and trust: which org each GitHub App installation belongs to (check runs are posted only
 * to repositories of an installation linked to the deploy event's org), the key a rotated key was
 * replaced by, and a webhook subscription's previous secret while a rotation overlaps.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('github_installations', (t) => {
    t.bigInteger('installation_id').primary();
    t.string('org', 100).notNullable();
    t.string('created_at', 30).notNullable();
    t.index(['org']);
  });
  await knex.schema.alterTable('api_keys', (t) => {
    t.string('replaced_by', 40);
  });
  await knex.schema.alterTable('webhook_subscriptions', (t) => {
    t.text('previous_secret_sealed');
    t.string('previous_secret_expires_at', 30);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_subscriptions', (t) => {
    t.dropColumn('previous_secret_sealed');
    t.dropColumn('previous_secret_expires_at');
  });
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropColumn('replaced_by');
  });
  await knex.schema.dropTableIfExists('github_installations');
}
