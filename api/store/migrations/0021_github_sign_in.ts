import type { Knex } from 'knex';

/**
 * Console sessions of people who signed in with GitHub rather than with an API key. Such a session is
 * read-only and limited to the sites GitHub said its user can read; the user's GitHub token is kept
 * sealed (secret box) so the grant can be asked again when it is due, and the cookie token only as its
 * SHA-256, like key sessions.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('console_github_sessions', (t) => {
    t.string('token_hash', 64).primary();
    t.string('org', 100).notNullable();
    t.string('login', 100).notNullable();
    /** JSON array of the site ids the user may see. */
    t.text('site_ids').notNullable();
    t.text('sealed_token').notNullable();
    t.string('created_at', 30).notNullable();
    /** When GitHub is asked again which repositories the user can read. */
    t.string('recheck_at', 30).notNullable();
    /** The earlier of the session's own end and the GitHub token's expiry. */
    t.string('expires_at', 30).notNullable();
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('console_github_sessions');
}
