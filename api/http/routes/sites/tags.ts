import { SiteParam } from '../../../schemas/sites/sites.js';
import { PutSiteTagsBody, SiteTags, TagList } from '../../../schemas/sites/tags.js';
import { listTags, setSiteTags, siteTags } from '../../../services/sites/tags.js';
import type { ApiContext } from '../../../context.js';
import { defineRoute, type AnyRoute } from '../../route.js';

/** The tags (groups) of sites that the org's view reads per group. */
export function tagRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/tags',
      tag: 'Sites',
      summary: "The org's tags and the sites carrying each",
      access: 'read',
      responses: { 200: { description: 'The tags.', schema: TagList } },
      handler: async ({ org }) => ({ status: 200, body: await listTags(ctx, org) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/sites/:siteId/tags',
      tag: 'Sites',
      summary: "A site's tags",
      description: '`404` when the site does not exist.',
      access: 'read',
      params: SiteParam,
      responses: { 200: { description: "The site's tags.", schema: SiteTags } },
      handler: async ({ params, org }) => ({ status: 200, body: await siteTags(ctx, org, params.siteId) }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/sites/:siteId/tags',
      tag: 'Sites',
      summary: "Set a site's tags (the groups of the org's view)",
      description:
        'Replaces the tags; a site may carry several, and is counted in each of its groups. `404` when the ' +
        'site does not exist.',
      access: ['admin'],
      params: SiteParam,
      body: PutSiteTagsBody,
      responses: { 200: { description: "The site's tags.", schema: SiteTags } },
      handler: async ({ params, body, org }) => ({
        status: 200,
        body: await setSiteTags(ctx, org, params.siteId, body.tags),
      }),
    }),
  ];
}
