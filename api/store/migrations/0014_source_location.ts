import type { Knex } from 'knex';

/**
 * Where a scanner found an issue's element in the repository: the column beside the line, and how it was
 * found (`attribute`: a dev-build attribute on the element; `static`: the page's file read with source
 * positions). Both nullable: older issues and engines that send no location have neither.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scan_issues', (t) => {
    t.integer('source_column');
    t.string('source_method', 16);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scan_issues', (t) => {
    t.dropColumn('source_column');
    t.dropColumn('source_method');
  });
}
