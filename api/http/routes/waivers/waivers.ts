import { nowIso } from '../../../domain/ids.js';
import { IdParam } from '../../../schemas/common.js';
import { CreateWaiverBody, Waiver, WaiverList, WaiverListQuery } from '../../../schemas/waivers/waivers.js';
import {
  createWaiver,
  getWaiver,
  listWaivers,
  presentWaiver,
  revokeWaiver,
} from '../../../services/waivers/waivers.js';
import type { ApiContext, Principal } from '../../../context.js';
import { newestFirstPage, pagedResponses } from '../../pagination.js';
import { defineRoute, type AnyRoute } from '../../route.js';

/** The key that acts (null for the admin token). */
const actor = (principal: Principal) => (principal.kind === 'key' ? principal.keyId : null);

export function waiverRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/waivers',
      tag: 'Waivers',
      summary: 'Waive matching issues of a site until a date',
      description:
        'Issues of `rule` that also match every other criterion given (`selector`, `url_pattern`, `fingerprint`) ' +
        'are shown as waived in later deploy events and not counted by the gate. A waiver is not conformance: a ' +
        'VPAT still counts waived issues. `404` when the site does not exist.',
      access: 'manage',
      body: CreateWaiverBody,
      responses: {
        201: { description: 'The waiver.', schema: Waiver, headers: { Location: '' } },
      },
      handler: async ({ body, org, principal }) => {
        const view = await createWaiver(ctx, org, actor(principal), body);
        return { status: 201, headers: { Location: `/api/v1/waivers/${view.id}` }, body: view };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/waivers',
      tag: 'Waivers',
      summary: 'List waivers, newest first',
      access: ['manage', 'read'],
      query: WaiverListQuery,
      responses: pagedResponses('Waivers, newest first.', WaiverList),
      handler: async ({ query, req, org }) => {
        const now = nowIso();
        return newestFirstPage(
          req,
          query,
          (limit, after) =>
            listWaivers(ctx, org, { siteId: query.siteId, active: query.active }, limit, after, now),
          (w) => [w.createdAt, w.id],
          (w) => presentWaiver(w, now),
        );
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/waivers/:id',
      tag: 'Waivers',
      summary: 'A waiver (also after it was revoked or expired)',
      access: ['manage', 'read'],
      params: IdParam,
      responses: { 200: { description: 'The waiver.', schema: Waiver } },
      handler: async ({ params, org }) => ({ status: 200, body: await getWaiver(ctx, org, params.id) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/waivers/:id',
      tag: 'Waivers',
      summary: 'Revoke a waiver (the record stays, with revoked_at)',
      description:
        'Takes effect for every later gate decision. Revoking a revoked waiver changes nothing and answers the ' +
        'same. Earlier deploy events keep what they decided.',
      access: 'manage',
      params: IdParam,
      responses: { 200: { description: 'The revoked waiver.', schema: Waiver } },
      handler: async ({ params, org, principal }) => ({
        status: 200,
        body: await revokeWaiver(ctx, org, params.id, actor(principal)),
      }),
    }),
  ];
}
