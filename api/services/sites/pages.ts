import { domainErrors } from '../../domain/errors.js';
import { nowIso } from '../../domain/ids.js';
import type { ApiContext } from '../../context.js';
import { SiteId } from '../../schemas/common.js';
import type { PatchSiteBody } from '../../schemas/sites/sites.js';
import { listScans, type ScanRecord } from '../../store/scans/scans.js';
import { getSite, type SiteRecord } from '../../store/sites/sites.js';
import { selectWaivers, type WaiverRecord } from '../../store/waivers/waivers.js';
import { configureSite } from './sites.js';
import type { z } from '../../schemas/zod.js';

/** Reads and the settings change of one site, as the console's site page needs them (org-scoped). */

export async function requireSite(ctx: ApiContext, org: string, siteId: string): Promise<SiteRecord> {
  // An id the API would refuse cannot name a site: the same 404 as a missing one.
  const site = SiteId.safeParse(siteId).success ? await getSite(ctx.db, org, siteId) : undefined;
  if (!site) throw domainErrors.notFound('site');
  return site;
}

/** `limit + 1` scans of the site, newest first (any branch). */
export function siteScans(
  ctx: ApiContext,
  org: string,
  siteId: string,
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<ScanRecord[]> {
  return listScans(ctx.db, org, { siteId }, limit, after);
}

/** The site's waivers, newest first (active and ended). */
export function siteWaivers(
  ctx: ApiContext,
  org: string,
  siteId: string,
  limit: number,
): Promise<WaiverRecord[]> {
  return selectWaivers(ctx.db, org, { siteId, now: nowIso() }, limit);
}

/**
 * The same change as `PATCH /api/v1/sites/:siteId` (the repository checked against the org's GitHub
 * installations alike), on an existing site only.
 */
export async function changeSiteSettings(
  ctx: ApiContext,
  org: string,
  siteId: string,
  patch: z.output<typeof PatchSiteBody>,
): Promise<SiteRecord> {
  await requireSite(ctx, org, siteId);
  return configureSite(ctx, org, siteId, patch);
}
