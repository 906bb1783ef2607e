import { PatchSiteBody, Site, SiteList, SiteParam, SitesQuery } from '../../../schemas/sites/sites.js';
import { configureSite, findSite, listOrgSites } from '../../../services/sites/sites.js';
import { presentSite } from '../../../services/sites/views.js';
import type { ApiContext } from '../../../context.js';
import { decodeCursor, toPage } from '../../pagination.js';
import { defineRoute, type AnyRoute } from '../../route.js';

export function siteRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/sites',
      tag: 'Sites',
      summary: 'List sites, by siteId',
      access: 'read',
      query: SitesQuery,
      responses: { 200: { description: 'Sites in siteId order.', schema: SiteList, headers: { Link: '' } } },
      handler: async ({ query, req, org }) => {
        const after = decodeCursor(query.cursor, 1);
        const rows = await listOrgSites(ctx, org, query.limit + 1, after ? String(after[0]) : undefined);
        const page = toPage(req, rows, query.limit, (s) => [s.siteId], presentSite);
        return { status: 200, body: page.body, headers: page.headers };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/sites/:siteId',
      tag: 'Sites',
      summary: 'Get a site and its settings',
      access: 'read',
      params: SiteParam,
      responses: { 200: { description: 'The site.', schema: Site } },
      handler: async ({ params, org }) => {
        return { status: 200, body: presentSite(await findSite(ctx, org, params.siteId)) };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/sites/:siteId',
      tag: 'Sites',
      summary: 'Change site settings (creates the site if it has no scan yet)',
      description:
        'Sites are created by their first scan; a PATCH may also create one, so a pipeline can set ' +
        '`base_branch`, `repository` or gate defaults before the first scan arrives. A `repository` is ' +
        'accepted only when GitHub says it belongs to an installation of the App linked to this org (422 ' +
        'with the reason otherwise; see `POST /api/v1/github/installations`).',
      access: 'manage',
      params: SiteParam,
      body: PatchSiteBody,
      responses: { 200: { description: 'The site after the change.', schema: Site } },
      handler: async ({ params, body, org }) => {
        return { status: 200, body: presentSite(await configureSite(ctx, org, params.siteId, body ?? {})) };
      },
    }),
  ];
}
