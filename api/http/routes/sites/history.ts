import { DeployList, DeployListQuery } from '../../../schemas/gate/deploy-history.js';
import { SiteParam } from '../../../schemas/sites/sites.js';
import { SiteTrend, TrendQuery } from '../../../schemas/sites/trend.js';
import { deployHistory, siteTrend } from '../../../services/sites/history.js';
import type { ApiContext } from '../../../context.js';
import { newestFirstPage, pagedResponses } from '../../pagination.js';
import { defineRoute, type AnyRoute } from '../../route.js';

export function siteHistoryRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/deploys',
      tag: 'Deploy gate',
      summary: 'Gate history: deploy events, newest first',
      description: 'Every deploy event of the org, or of one site with `siteId`, as summary lines.',
      access: ['gate', 'read'],
      query: DeployListQuery,
      responses: pagedResponses('Deploy events, newest first.', DeployList),
      handler: ({ query, req, org }) =>
        newestFirstPage(
          req,
          query,
          (limit, after) => deployHistory(ctx, org, { siteId: query.siteId }, limit, after),
          (d) => [d.created_at, d.id],
          (d) => d,
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/sites/:siteId/trend',
      tag: 'Sites',
      summary: "Trend of issues by impact over the base branch's latest scans",
      description:
        "One point per scan on the site's base branch, oldest first. `404` when the site does not exist.",
      access: 'read',
      params: SiteParam,
      query: TrendQuery,
      responses: { 200: { description: 'The trend.', schema: SiteTrend } },
      handler: async ({ params, query, org }) => ({
        status: 200,
        body: await siteTrend(ctx, org, params.siteId, query.limit),
      }),
    }),
  ];
}
