import type { Knex } from 'knex';

/**
 * The pull request comment of each site: whether a site wants one (`pr_comment`), whether its workflow
 * gates merge-group commits itself (`merge_group_scans`), and per pull request and site the comment's id
 * with a lease, so that results arriving together on several instances write one comment, in turn.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sites', (t) => {
    t.boolean('pr_comment').notNullable().defaultTo(true);
    t.boolean('merge_group_scans').notNullable().defaultTo(false);
  });
  await knex.schema.createTable('github_pr_comments', (t) => {
    t.string('org', 100).notNullable();
    // Lower case: GitHub's names are case-insensitive, and one pull request must be one row.
    t.string('repository', 200).notNullable();
    t.integer('pull_number').notNullable();
    t.string('site_id', 100).notNullable();
    t.bigInteger('comment_id');
    t.string('lease_token', 64);
    t.string('lease_until', 30);
    t.string('updated_at', 30).notNullable();
    t.primary(['org', 'repository', 'pull_number', 'site_id']);
    t.index(['org', 'site_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('github_pr_comments');
  await knex.schema.alterTable('sites', (t) => {
    t.dropColumn('pr_comment');
    t.dropColumn('merge_group_scans');
  });
}
