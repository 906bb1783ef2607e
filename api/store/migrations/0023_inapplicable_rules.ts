import type { Knex } from 'knex';

/**
 * The rules that ran on a page and found nothing to test there (axe-core's `inapplicable`), as a JSON
 * list beside `rules_run`: a criterion whose rules had nothing to test on any page may not apply at all.
 * NULL: not known (pages stored before, or pages that did not say).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scan_pages', (t) => {
    t.text('rules_inapplicable');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scan_pages', (t) => {
    t.dropColumn('rules_inapplicable');
  });
}
