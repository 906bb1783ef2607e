import type { Knex } from 'knex';

/**
 * Accessibility statements (api/domain/statement): one row per version of a site's statement, the whole
 * document as JSON beside the columns that lists, version lines and the review-due sweep read. Waivers get
 * the reason category the statement sorts them by; existing waivers are `non-compliance`, the category that
 * claims no exemption.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('waivers', (t) => {
    t.string('reason_category', 32).notNullable().defaultTo('non-compliance');
  });
  await knex.schema.createTable('statements', (t) => {
    t.string('id', 40).primary();
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    t.integer('version').notNullable();
    t.string('previous_id', 40);
    t.string('status', 10).notNullable();
    t.string('report_id', 40).notNullable();
    // What a site's list shows without parsing each statement.
    t.string('compliance', 10).notNullable();
    t.integer('missing').notNullable();
    t.string('published_by', 200);
    t.string('published_at', 30);
    // YYYY-MM-DD, set when the version is published.
    t.string('next_review_on', 10);
    // Set once by the review-due sweep (store/statement/review-due.ts).
    t.string('review_due_event_at', 30);
    t.text('statement').notNullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    // Versions of a site's statement form one line: two drafts made from one version at once cannot both land.
    t.unique(['org', 'site_id', 'version']);
    t.index(['org', 'site_id', 'created_at', 'id']);
    t.index(['status', 'review_due_event_at', 'next_review_on']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('statements');
  await knex.schema.alterTable('waivers', (t) => {
    t.dropColumn('reason_category');
  });
}
