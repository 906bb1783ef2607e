import type { Knex } from 'knex';

/**
 * Scans sent in shards by parallel CI jobs. `scans.scan_group` names the open scan the jobs of one run
 * share (unique per org and site, so every job finds the same scan), `scans.shards` the number of shards
 * that complete it. Each page records its shard, so a shard sent again replaces its own pages, and
 * `scan_shards` keeps what each shard added (its totals, to take them back out) and whether it has
 * reported (all its parts arrived).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.string('scan_group', 200);
    t.integer('shards');
    t.unique(['org', 'site_id', 'scan_group'], { indexName: 'scans_group_unique' });
  });
  await knex.schema.alterTable('scan_pages', (t) => {
    t.integer('shard');
  });
  await knex.schema.createTable('scan_shards', (t) => {
    t.string('scan_id', 40).notNullable().references('scans.id').onDelete('CASCADE');
    t.integer('shard').notNullable();
    t.integer('parts').notNullable();
    t.integer('parts_received').notNullable();
    t.integer('page_count').notNullable();
    t.integer('issue_count').notNullable();
    t.integer('html_truncated').notNullable();
    t.text('summary').notNullable();
    t.string('reported_at', 30);
    t.string('updated_at', 30).notNullable();
    t.primary(['scan_id', 'shard']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('scan_shards');
  await knex.schema.alterTable('scan_pages', (t) => {
    t.dropColumn('shard');
  });
  await knex.schema.alterTable('scans', (t) => {
    t.dropUnique(['org', 'site_id', 'scan_group'], 'scans_group_unique');
    t.dropColumn('shards');
    t.dropColumn('scan_group');
  });
}
