import type { Knex } from 'knex';

/**
 * A site's records, removed in the caller's transaction: its deploy events, waivers, VPAT reports, statements and assessments
 * go, and its scans are marked `deleted` (their pages and issues, the bulk, are removed afterwards in
 * batches by the retention job), so from the commit on nothing of the site is visible, and a new scan
 * under the same siteId starts a new site.
 */
export async function deleteSiteRecords(
  trx: Knex.Transaction,
  org: string,
  siteId: string,
): Promise<{ scans: number; deploys: number; reports: number; waivers: number }> {
  const where = { org, site_id: siteId };
  const scans = await trx('scans').where(where).whereNot({ status: 'deleted' }).update({ status: 'deleted' });
  const deploys = await trx('deploys').where(where).delete();
  // Statements before the reports they were made from.
  await trx('statements').where(where).delete();
  const reports = await trx('vpat_reports').where(where).delete();
  const waivers = await trx('waivers').where(where).delete();
  // An assessment's results and their history go with it (the foreign keys cascade).
  await trx('assessments').where(where).delete();
  await trx('github_pr_comments').where(where).delete();
  // Its history and deadlines: a new site under the same siteId starts with none.
  for (const table of [
    'history_spans',
    'history_days',
    'deadline_settings',
    'sla_breaches',
    'site_tags',
    'history_fixes',
    'history_pages',
    'history_queue',
  ])
    await trx(table).where(where).delete();
  await trx('sites').where(where).delete();
  return { scans, deploys, reports, waivers };
}

/** A scan of the site still receiving parts (open and not yet expired), if any. */
export async function openScanOfSite(
  trx: Knex.Transaction,
  org: string,
  siteId: string,
  now: string,
): Promise<{ id: string; expires_at: string } | undefined> {
  return trx('scans')
    .where({ org, site_id: siteId, status: 'open' })
    .andWhere('expires_at', '>=', now)
    .first('id', 'expires_at');
}
