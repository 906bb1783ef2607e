import type { Knex } from 'knex';

/**
 * Report versions: a review or a publication stores a new immutable version pointing at the one it was made
 * from. The columns are what a site's list shows without parsing every stored report.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('vpat_reports', (t) => {
    t.integer('version').notNullable().defaultTo(1);
    t.string('previous_id', 40).nullable();
    t.string('product_name', 200).nullable();
    t.string('product_version', 100).nullable();
    t.integer('undecided').nullable();
    t.index(['org', 'site_id', 'created_at', 'id'], 'vpat_reports_site_list');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('vpat_reports', (t) => {
    t.dropIndex(['org', 'site_id', 'created_at', 'id'], 'vpat_reports_site_list');
    t.dropColumns('version', 'previous_id', 'product_name', 'product_version', 'undecided');
  });
}
