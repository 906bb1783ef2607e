import type { Knex } from 'knex';

/**
 * Assessments (api/domain/assessments): a site's human evaluation, its results per criterion and page
 * (`page` '' answers for the whole sample: a key column cannot be null) and every change to them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('assessments', (t) => {
    t.string('id', 40).primary();
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    t.string('scan_id', 40);
    t.string('title', 200).notNullable();
    t.string('level', 4).notNullable();
    // JSON: [{url, source}]
    t.text('sample').notNullable();
    t.bigInteger('seed');
    t.string('origin', 40).notNullable();
    t.string('created_at', 30).notNullable();
    t.string('created_by', 200).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['org', 'site_id', 'created_at', 'id']);
  });
  await knex.schema.createTable('assessment_results', (t) => {
    t.string('assessment_id', 40).notNullable().references('assessments.id').onDelete('CASCADE');
    t.string('criterion', 10).notNullable();
    t.text('page').notNullable();
    t.string('outcome', 16).notNullable();
    t.text('notes').notNullable();
    t.string('tester', 200).notNullable();
    t.integer('version').notNullable();
    t.string('updated_at', 30).notNullable();
    t.primary(['assessment_id', 'criterion', 'page']);
  });
  await knex.schema.createTable('assessment_result_changes', (t) => {
    t.bigIncrements('id').primary();
    t.string('assessment_id', 40).notNullable().references('assessments.id').onDelete('CASCADE');
    t.string('criterion', 10).notNullable();
    t.text('page').notNullable();
    t.text('before');
    t.text('after').notNullable();
    t.string('changed_by', 200).notNullable();
    t.string('changed_at', 30).notNullable();
    t.index(['assessment_id', 'criterion']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('assessment_result_changes');
  await knex.schema.dropTableIfExists('assessment_results');
  await knex.schema.dropTableIfExists('assessments');
}
