import { OrgFixesQuery, SiteFixesQuery, TopFixList } from '../../../schemas/portfolio/fixes.js';
import { SiteParam } from '../../../schemas/sites/sites.js';
import { orgTopFixes, siteTopFixes } from '../../../services/portfolio/fixes.js';
import type { ApiContext } from '../../../context.js';
import { defineRoute, type AnyRoute } from '../../route.js';

const TAG = 'Portfolio';

export function fixRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/sites/:siteId/fixes',
      tag: TAG,
      summary: "The fixes that clear the most of a site's open issues",
      description:
        'Its open issues grouped by shared cause (a located `path:line`, else one rule on the same element ' +
        'markup), ranked by pages cleared weighted by impact. `404` when the site does not exist.',
      access: 'read',
      params: SiteParam,
      query: SiteFixesQuery,
      responses: { 200: { description: 'The fixes, best first.', schema: TopFixList } },
      handler: async ({ params, query, org }) => ({
        status: 200,
        body: await siteTopFixes(ctx, org, params.siteId, query.top),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/fixes',
      tag: TAG,
      summary: 'The fixes that clear the most across the org, or a group of its sites',
      description:
        "Every site's ranked fixes together (a fix belongs to one site: its code lives in that site's " +
        'repository). `404` when no site carries the `group`.',
      access: 'read',
      query: OrgFixesQuery,
      responses: { 200: { description: 'The fixes, best first.', schema: TopFixList } },
      handler: async ({ query, org }) => ({ status: 200, body: await orgTopFixes(ctx, org, query) }),
    }),
  ];
}
