import type { Knex } from 'knex';
import type { GateSettings } from '../../schemas/gate/settings.js';
import { reserveOrgPlace } from '../access/org-counts.js';
import type { ClaimPolicy } from '../../../core/claims/deploy-claims.js';

/** A site: a client-chosen slug per org, created by its first scan, with settings for the gate. */
export interface SiteRecord {
  siteId: string;
  name: string | null;
  url: string | null;
  repository: string | null;
  baseBranch: string;
  gate: GateSettings | null;
  retention: RetentionSettings;
  /** Whether the GitHub App writes the pull request comment of this site's results (migration 0018). */
  prComment: boolean;
  /** Whether the site's workflow gates merge-group commits itself (else the App answers them neutral). */
  mergeGroupScans: boolean;
  /** What a claimed fix that is not fixed does: `report` it only, or fail the gate (`strict`; migration 0031). */
  claims: ClaimPolicy;
  createdAt: string;
  updatedAt: string;
}

/** Days each kind of record is kept (migration 0012). */
export interface RetentionSettings {
  baseBranchDays: number;
  otherBranchDays: number;
  deployDays: number;
}

interface Row {
  org: string;
  site_id: string;
  name: string | null;
  url: string | null;
  repository: string | null;
  base_branch: string;
  gate: string | null;
  retention_base_branch_days: number;
  retention_other_branch_days: number;
  retention_deploy_days: number;
  pr_comment: boolean | number;
  merge_group_scans: boolean | number;
  claims: ClaimPolicy;
  created_at: string;
  updated_at: string;
}

function fromRow(r: Row): SiteRecord {
  return {
    siteId: r.site_id,
    name: r.name,
    url: r.url,
    repository: r.repository,
    baseBranch: r.base_branch,
    gate: r.gate ? (JSON.parse(r.gate) as GateSettings) : null,
    retention: {
      baseBranchDays: Number(r.retention_base_branch_days),
      otherBranchDays: Number(r.retention_other_branch_days),
      deployDays: Number(r.retention_deploy_days),
    },
    prComment: Boolean(r.pr_comment),
    mergeGroupScans: Boolean(r.merge_group_scans),
    claims: r.claims === 'strict' ? 'strict' : 'report',
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function getSite(db: Knex, org: string, siteId: string): Promise<SiteRecord | undefined> {
  const row = await db<Row>('sites').where({ org, site_id: siteId }).first();
  return row ? fromRow(row) : undefined;
}

/** Creates the site with default settings unless it exists (race-free on both databases). */
export async function ensureSite(
  trx: Knex.Transaction,
  org: string,
  siteId: string,
  now: string,
  maxSites: number,
): Promise<void> {
  if (await trx('sites').where({ org, site_id: siteId }).first('site_id')) return;
  await reserveOrgPlace(trx, 'sites', org, { name: 'sites_per_org', value: maxSites });
  await trx('sites')
    .insert({ org, site_id: siteId, base_branch: 'main', created_at: now, updated_at: now })
    .onConflict(['org', 'site_id'])
    .ignore();
}

/** Keyset page of an org's sites ordered by siteId. */
export async function listSites(
  db: Knex,
  org: string,
  limit: number,
  afterSiteId?: string,
): Promise<SiteRecord[]> {
  const q = db<Row>('sites').where({ org }).orderBy('site_id', 'asc').limit(limit);
  if (afterSiteId !== undefined) q.andWhere('site_id', '>', afterSiteId);
  return (await q).map(fromRow);
}

/** The org's sites bound to a repository (GitHub's names are case-insensitive). */
export async function sitesOfRepository(db: Knex, org: string, repository: string): Promise<SiteRecord[]> {
  const rows = await db<Row>('sites')
    .where({ org })
    .whereRaw('lower(repository) = ?', [repository.toLowerCase()])
    .orderBy('site_id', 'asc')
    .limit(100);
  return rows.map(fromRow);
}

export interface SiteSettingsPatch {
  name?: string | null;
  url?: string | null;
  repository?: string | null;
  /** null resets to `main`. */
  baseBranch?: string | null;
  /** Replaces the stored defaults as a whole; null removes them. */
  gate?: GateSettings | null;
  /** Periods to change; absent ones stay. */
  retention?: Partial<RetentionSettings>;
  prComment?: boolean;
  mergeGroupScans?: boolean;
  claims?: ClaimPolicy;
}

/**
 * Applies a settings patch (absent fields unchanged), creating the site first when it does not exist
 * yet, so a pipeline can be configured before its first scan. Returns the site and whether it was new.
 */
export async function patchSite(
  db: Knex,
  org: string,
  siteId: string,
  patch: SiteSettingsPatch,
  now: string,
  maxSites: number,
): Promise<{ site: SiteRecord; created: boolean }> {
  return db.transaction(async (trx) => {
    const existing = await trx<Row>('sites').where({ org, site_id: siteId }).first('site_id');
    if (!existing) await ensureSite(trx, org, siteId, now, maxSites);
    const update: Partial<Row> = { updated_at: now };
    if (patch.name !== undefined) update.name = patch.name;
    if (patch.url !== undefined) update.url = patch.url;
    if (patch.repository !== undefined) update.repository = patch.repository;
    if (patch.baseBranch !== undefined) update.base_branch = patch.baseBranch ?? 'main';
    if (patch.gate !== undefined) update.gate = patch.gate === null ? null : JSON.stringify(patch.gate);
    if (patch.prComment !== undefined) update.pr_comment = patch.prComment;
    if (patch.mergeGroupScans !== undefined) update.merge_group_scans = patch.mergeGroupScans;
    if (patch.claims !== undefined) update.claims = patch.claims;
    const r = patch.retention ?? {};
    if (r.baseBranchDays !== undefined) update.retention_base_branch_days = r.baseBranchDays;
    if (r.otherBranchDays !== undefined) update.retention_other_branch_days = r.otherBranchDays;
    if (r.deployDays !== undefined) update.retention_deploy_days = r.deployDays;
    await trx<Row>('sites').where({ org, site_id: siteId }).update(update);
    const row = await trx<Row>('sites').where({ org, site_id: siteId }).first();
    return { site: fromRow(row!), created: !existing };
  });
}
