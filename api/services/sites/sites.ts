import { domainErrors } from '../../domain/errors.js';
import { nowIso } from '../../domain/ids.js';
import type { ApiContext } from '../../context.js';
import type { PatchSiteBody } from '../../schemas/sites/sites.js';
import type { z } from '../../schemas/zod.js';
import { assertRepositoryAllowed } from '../github/installations.js';
import {
  getSite,
  listSites,
  patchSite,
  type SiteRecord,
  type SiteSettingsPatch,
} from '../../store/sites/sites.js';

/** The API's site settings body as the store's patch (absent stays absent, null stays null). */
export function siteSettingsPatch(body: z.output<typeof PatchSiteBody>): SiteSettingsPatch {
  const {
    base_branch: baseBranch,
    retention,
    pr_comment: prComment,
    merge_group_scans: mergeGroupScans,
    ...rest
  } = body;
  const patch: SiteSettingsPatch = baseBranch === undefined ? rest : { ...rest, baseBranch };
  if (prComment !== undefined) patch.prComment = prComment;
  if (mergeGroupScans !== undefined) patch.mergeGroupScans = mergeGroupScans;
  if (retention) {
    patch.retention = {
      baseBranchDays: retention.base_branch_days,
      otherBranchDays: retention.other_branch_days,
      deployDays: retention.deploy_days,
    };
  }
  return patch;
}

/** `limit` of the org's sites after `afterSiteId`, by siteId. */
export function listOrgSites(
  ctx: ApiContext,
  org: string,
  limit: number,
  afterSiteId: string | undefined,
): Promise<SiteRecord[]> {
  return listSites(ctx.db, org, limit, afterSiteId);
}

/** One site of the org; DomainError not_found otherwise. */
export async function findSite(ctx: ApiContext, org: string, siteId: string): Promise<SiteRecord> {
  const site = await getSite(ctx.db, org, siteId);
  if (!site) throw domainErrors.notFound('site');
  return site;
}

/**
 * `PATCH /api/v1/sites/:siteId`: a repository is accepted only when it belongs to a GitHub installation
 * linked to the org (check runs go nowhere else); creates the site when it has no scan yet.
 */
export async function configureSite(
  ctx: ApiContext,
  org: string,
  siteId: string,
  body: z.output<typeof PatchSiteBody>,
): Promise<SiteRecord> {
  if (body.repository) await assertRepositoryAllowed(ctx, org, body.repository);
  const { site, created } = await patchSite(
    ctx.db,
    org,
    siteId,
    siteSettingsPatch(body),
    nowIso(),
    ctx.config.limits.sitesPerOrg,
  );
  ctx.logger.info({ org, site_id: siteId, created, fields: Object.keys(body) }, 'site settings changed');
  return site;
}
