import type { Knex } from 'knex';

/**
 * The organisation's view (docs/portfolio.md): `site_tags` holds the tags (groups) a site carries;
 * `history_fixes` the shared causes of each site's open issues, ranked, drawn again as the site's
 * full base-branch scans complete, so the top fixes are read rather than recomputed; `history_pages`
 * each page address a full base-branch scan had in a year, with its open issues at its last scan that
 * year, for the Section 508 figures.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('site_tags', (t) => {
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    t.string('tag', 50).notNullable();
    t.primary(['org', 'site_id', 'tag']);
    t.index(['org', 'tag']);
  });
  await knex.schema.createTable('history_fixes', (t) => {
    t.bigIncrements('id').primary();
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    t.string('kind', 16).notNullable();
    t.text('path');
    t.integer('line');
    t.text('markup');
    t.text('rules').notNullable();
    t.string('impact', 16);
    t.integer('score').notNullable();
    t.integer('page_count').notNullable();
    t.integer('issue_count').notNullable();
    t.text('pages').notNullable();
    t.text('selector');
    t.string('sha', 100);
    t.index(['org', 'site_id']);
    t.index(['org', 'score']);
  });
  await knex.schema.createTable('history_pages', (t) => {
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    t.integer('year').notNullable();
    t.text('page').notNullable();
    t.string('first_at', 30).notNullable();
    t.string('last_at', 30).notNullable();
    t.integer('open_issues').notNullable();
    t.primary(['org', 'site_id', 'year', 'page']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('history_pages');
  await knex.schema.dropTable('history_fixes');
  await knex.schema.dropTable('site_tags');
}
