import type { Knex } from 'knex';

/**
 * The console's sign-in sessions, and the index its gate history reads (a site's deploy events,
 * newest first). A session row holds only the SHA-256 of its cookie token, so a copy of the table
 * cannot be replayed as cookies.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('console_sessions', (t) => {
    t.string('token_hash', 64).primary();
    t.string('key_id', 40).notNullable();
    t.string('org', 100).notNullable();
    t.string('created_at', 30).notNullable();
    t.string('expires_at', 30).notNullable();
    t.index(['key_id']);
    t.index(['expires_at']);
  });
  await knex.schema.alterTable('deploys', (t) => {
    t.index(['org', 'site_id', 'created_at'], 'deploys_org_site_created_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('deploys', (t) => {
    t.dropIndex(['org', 'site_id', 'created_at'], 'deploys_org_site_created_idx');
  });
  await knex.schema.dropTableIfExists('console_sessions');
}
