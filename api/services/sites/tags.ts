import type { ApiContext } from '../../context.js';
import { domainErrors } from '../../domain/errors.js';
import type { SiteTags, TagList } from '../../schemas/sites/tags.js';
import { getSite } from '../../store/sites/sites.js';
import { orgTags, readSiteTags, writeSiteTags } from '../../store/sites/tags.js';

/** The tags a site carries: the groups of the org's view (docs/portfolio.md). */

export async function siteTags(ctx: ApiContext, org: string, siteId: string): Promise<SiteTags> {
  if (!(await getSite(ctx.db, org, siteId))) throw domainErrors.notFound('site');
  return { siteId, tags: await readSiteTags(ctx.db, org, siteId) };
}

/** Replaces a site's tags; DomainError not_found when the org has no such site. */
export async function setSiteTags(
  ctx: ApiContext,
  org: string,
  siteId: string,
  tags: readonly string[],
): Promise<SiteTags> {
  await ctx.db.transaction(async (trx) => {
    if (!(await getSite(trx, org, siteId))) throw domainErrors.notFound('site');
    await writeSiteTags(trx, org, siteId, tags);
  });
  ctx.logger.info({ org, site_id: siteId, tags }, 'site tags changed');
  return siteTags(ctx, org, siteId);
}

export async function listTags(ctx: ApiContext, org: string): Promise<TagList> {
  return { data: [...(await orgTags(ctx.db, org))].map(([tag, sites]) => ({ tag, sites })) };
}
