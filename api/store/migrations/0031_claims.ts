import type { Knex } from 'knex';

/**
 * Verified fixes (docs/agents.md, "Claims through the service"). `scan_passes`: the passing elements a scan
 * body sent for the rules whose fixes may be claimed, fingerprinted like issues so a claimed issue is paired
 * with the element that now passes. `deploy_claims`: each fix a deploy event's change claimed, the gate's
 * answer, who made the change (agent, model, session) and a person's acceptance of a text rule's new text;
 * by `(org, site_id, fingerprint)` it is the history of claims. `scans.claims` keeps the claims a
 * scan body named; `sites.claims` is the site's policy (`report` or `strict`), `deploys.claims_policy` the
 * one a deploy event applied.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scan_passes', (t) => {
    t.bigIncrements('id').primary();
    t.string('scan_id', 40).notNullable().references('scans.id').onDelete('CASCADE');
    t.integer('page_index').notNullable();
    t.string('rule', 200).notNullable();
    t.text('selector');
    t.text('html');
    t.string('fingerprint', 64).notNullable();
    t.index(['scan_id', 'page_index']);
  });
  await knex.schema.createTable('deploy_claims', (t) => {
    t.string('deploy_id', 40).notNullable().references('deploys.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    t.string('fingerprint', 64).notNullable();
    t.string('outcome', 20).notNullable();
    t.text('reason').notNullable();
    t.string('rule', 200);
    t.text('page_url');
    // The element before and after, as JSON `{html, text}` (page text).
    t.text('before');
    t.text('after');
    t.string('agent', 200);
    t.string('model', 200);
    t.text('session_url');
    t.string('accepted_by', 200);
    t.string('accepted_at', 30);
    t.string('created_at', 30).notNullable();
    t.primary(['deploy_id', 'fingerprint']);
    t.index(['org', 'site_id', 'fingerprint', 'created_at']);
  });
  await knex.schema.alterTable('scans', (t) => {
    t.text('claims');
  });
  // The policy a deploy event applied to its claims; NULL when it had none (its claims are deploy_claims).
  await knex.schema.alterTable('deploys', (t) => {
    t.string('claims_policy', 10);
  });
  await knex.schema.alterTable('sites', (t) => {
    t.string('claims', 10).notNullable().defaultTo('report');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sites', (t) => {
    t.dropColumn('claims');
  });
  await knex.schema.alterTable('deploys', (t) => {
    t.dropColumn('claims_policy');
  });
  await knex.schema.alterTable('scans', (t) => {
    t.dropColumn('claims');
  });
  await knex.schema.dropTableIfExists('deploy_claims');
  await knex.schema.dropTableIfExists('scan_passes');
}
