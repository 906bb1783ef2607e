import type { Knex } from 'knex';

/**
 * Reading a scan's issues in submission order (the streamed scan, the paged issues resource) seeks to
 * the scan and walks its ids: without this index SQLite read and sorted the rest of the scan for every
 * screen (a read of the whole scan grew with the square of its size), and PostgreSQL chose between the
 * same sort and a walk of every later scan's rows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index scan_issues_scan_order on scan_issues (scan_id, id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index scan_issues_scan_order');
}
