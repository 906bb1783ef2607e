import { keepQueuedHistory } from '../history/keep.js';
import type { ApiContext } from '../../context.js';
import { domainErrors } from '../../domain/errors.js';
import { FIX_WEIGHTS, fixCodeLink } from '../../domain/portfolio/fixes.js';
import type { TopFix, TopFixList } from '../../schemas/portfolio/fixes.js';
import { readTopFixes, type KeptFix } from '../../store/portfolio/fixes.js';
import { getSite, type SiteRecord } from '../../store/sites/sites.js';
import { sitesTagged } from '../../store/sites/tags.js';

/** The fixes that clear the most, per site and per org or group, read from the kept groups. */

export function presentFix(f: KeptFix, site: SiteRecord | undefined): TopFix {
  return {
    siteId: f.siteId,
    kind: f.kind,
    code: fixCodeLink(f, site?.repository ?? null, f.sha ?? site?.baseBranch ?? null),
    path: f.path,
    line: f.line,
    markup: f.markup,
    selector: f.selector,
    rules: f.rules,
    impact: f.impact,
    score: f.score,
    page_count: f.pageCount,
    issue_count: f.issueCount,
    pages: f.pages,
  };
}

/** The sites of a group (a tag); DomainError not_found when no site of the org carries it. */
export async function groupSites(ctx: ApiContext, org: string, group: string): Promise<string[]> {
  const sites = await sitesTagged(ctx.db, org, group);
  if (sites.length === 0) throw domainErrors.notFound('group');
  return sites;
}

/** The best `top` kept fixes of the given sites (all the org's when undefined), with their code links. */
export async function topFixes(
  ctx: ApiContext,
  org: string,
  siteIds: readonly string[] | undefined,
  top: number,
): Promise<TopFix[]> {
  const fixes = await readTopFixes(ctx.db, org, siteIds, top);
  const sites = new Map<string, SiteRecord | undefined>();
  for (const id of new Set(fixes.map((f) => f.siteId))) sites.set(id, await getSite(ctx.db, org, id));
  return fixes.map((f) => presentFix(f, sites.get(f.siteId)));
}

export async function siteTopFixes(
  ctx: ApiContext,
  org: string,
  siteId: string,
  top: number,
): Promise<TopFixList> {
  if (!(await getSite(ctx.db, org, siteId))) throw domainErrors.notFound('site');
  await keepQueuedHistory(ctx.db, { org, siteId });
  return { weights: FIX_WEIGHTS, data: await topFixes(ctx, org, [siteId], top) };
}

export async function orgTopFixes(
  ctx: ApiContext,
  org: string,
  query: { group?: string; top: number },
): Promise<TopFixList> {
  const sites = query.group === undefined ? undefined : await groupSites(ctx, org, query.group);
  await keepQueuedHistory(ctx.db, { org });
  return { weights: FIX_WEIGHTS, data: await topFixes(ctx, org, sites, query.top) };
}
