import { domainErrors } from '../../domain/errors.js';
import type { ApiContext } from '../../context.js';
import type { DeploySummary } from '../../schemas/gate/deploy-history.js';
import type { SiteTrend, TrendPoint } from '../../schemas/sites/trend.js';
import {
  latestDeployPerSite,
  listDeploySummaries,
  type DeploySummaryRecord,
} from '../../store/gate/deploy-history.js';
import { recentBaseBranchScans, type TrendPointRecord } from '../../store/sites/trends.js';
import { getSite, listSites, type SiteRecord } from '../../store/sites/sites.js';
import { deployIdentity, deployOutcome } from '../gate/deploy-view.js';

/**
 * What a site has been through: its trend over the base branch's scans and its gate history. The API
 * (`/sites/:siteId/trend`, `/deploys`) and the console read both from here.
 */

export function presentDeploySummary(d: DeploySummaryRecord): DeploySummary {
  return {
    ...deployIdentity(d),
    ...deployOutcome(d.passed),
    reason_codes: d.reasonCodes as DeploySummary['reason_codes'],
    scan_id: d.scanId,
    baseline_sha: d.baselineSha,
    counts: d.counts,
    new_issues_total: d.newIssuesTotal,
    created_at: d.createdAt,
  };
}

export function presentTrendPoint(p: TrendPointRecord): TrendPoint {
  return {
    scan_id: p.scanId,
    sha: p.sha,
    created_at: p.createdAt,
    issues: p.summary.issues,
    by_impact: { ...p.summary.by_impact },
  };
}

/** The site's trend; DomainError not_found when the org has no such site. */
export async function siteTrend(
  ctx: ApiContext,
  org: string,
  siteId: string,
  limit: number,
): Promise<SiteTrend> {
  const site = await getSite(ctx.db, org, siteId);
  if (!site) throw domainErrors.notFound('site');
  const points = (await recentBaseBranchScans(ctx.db, org, [siteId], limit)).get(siteId) ?? [];
  return { siteId, base_branch: site.baseBranch, points: points.map(presentTrendPoint) };
}

/** `limit + 1` deploy events, newest first (the extra one tells the caller there is a next page). */
export async function deployHistory(
  ctx: ApiContext,
  org: string,
  filter: { siteId?: string },
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<DeploySummary[]> {
  return (await listDeploySummaries(ctx.db, org, filter, limit, after)).map(presentDeploySummary);
}

export interface SiteOverview {
  site: SiteRecord;
  trend: TrendPoint[];
  lastDeploy: DeploySummary | null;
}

/**
 * A page of the org's sites (`limit + 1` read, by siteId) with each one's recent trend and latest gate
 * decision: three queries whatever the page size. `only` limits the page to those sites (a session
 * limited to some sites).
 */
export async function sitesOverview(
  ctx: ApiContext,
  org: string,
  limit: number,
  afterSiteId: string | undefined,
  trendLength: number,
  only?: string[],
): Promise<SiteOverview[]> {
  const sites = only
    ? (await Promise.all(only.map((id) => getSite(ctx.db, org, id))))
        .filter(
          (s): s is SiteRecord => s !== undefined && (afterSiteId === undefined || s.siteId > afterSiteId),
        )
        .sort((a, b) => (a.siteId < b.siteId ? -1 : 1))
        .slice(0, limit)
    : await listSites(ctx.db, org, limit, afterSiteId);
  const ids = sites.map((s) => s.siteId);
  const trends = await recentBaseBranchScans(ctx.db, org, ids, trendLength);
  const deploys = await latestDeployPerSite(ctx.db, org, ids);
  return sites.map((site) => {
    const last = deploys.get(site.siteId);
    return {
      site,
      trend: (trends.get(site.siteId) ?? []).map(presentTrendPoint),
      lastDeploy: last ? presentDeploySummary(last) : null,
    };
  });
}
