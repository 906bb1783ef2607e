import type { Knex } from 'knex';

/**
 * Element screenshots: a PNG of a violating element, stored with its scan (removed with it by retention and
 * deletion) and linked to one of its issues. `fingerprint` is copied from the issue so that a deploy event,
 * which names its issues by fingerprint, finds their pictures. One picture per issue: `(scan_id, issue_id)`
 * is unique, which makes a repeated upload store nothing new.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scan_screenshots', (t) => {
    t.string('id', 40).primary();
    t.string('org', 100).notNullable();
    t.string('scan_id', 40).notNullable().references('scans.id').onDelete('CASCADE');
    t.bigInteger('issue_id').notNullable();
    t.integer('page_index').notNullable();
    t.string('rule', 200).notNullable();
    t.text('selector').notNullable();
    t.string('fingerprint', 64).notNullable();
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    t.integer('bytes').notNullable();
    t.string('sha256', 64).notNullable();
    // bytea on PostgreSQL, blob on SQLite.
    t.binary('png').notNullable();
    t.string('created_at', 30).notNullable();
    t.unique(['scan_id', 'issue_id']);
    t.index(['scan_id', 'fingerprint']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('scan_screenshots');
}
