import type { Knex } from 'knex';

/**
 * Retention: each site says how long its scans and deploy events are kept (days). The sweep asks
 * "does a kept deploy event or a report still use this scan?" for every candidate, so the columns
 * that point at scans get indexes; without them each question would read every deploy of the org.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sites', (t) => {
    t.integer('retention_base_branch_days').notNullable().defaultTo(400);
    t.integer('retention_other_branch_days').notNullable().defaultTo(30);
    t.integer('retention_deploy_days').notNullable().defaultTo(400);
  });
  await knex.schema.alterTable('deploys', (t) => {
    t.index(['scan_id'], 'deploys_scan_id_idx');
    t.index(['baseline_scan_id'], 'deploys_baseline_scan_id_idx');
  });
  await knex.schema.alterTable('vpat_reports', (t) => {
    t.index(['scan_id'], 'vpat_reports_scan_id_idx');
  });
  // The sweep's candidates: a site's scans by age, whatever their branch.
  await knex.schema.alterTable('scans', (t) => {
    t.index(['org', 'site_id', 'created_at'], 'scans_org_site_created_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => t.dropIndex([], 'scans_org_site_created_idx'));
  await knex.schema.alterTable('vpat_reports', (t) => t.dropIndex([], 'vpat_reports_scan_id_idx'));
  await knex.schema.alterTable('deploys', (t) => {
    t.dropIndex([], 'deploys_baseline_scan_id_idx');
    t.dropIndex([], 'deploys_scan_id_idx');
  });
  await knex.schema.alterTable('sites', (t) => {
    t.dropColumn('retention_deploy_days');
    t.dropColumn('retention_other_branch_days');
    t.dropColumn('retention_base_branch_days');
  });
}
