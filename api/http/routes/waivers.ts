import { nowIso } from '../../domain/ids.js';
import { recordEvent } from '../../events/outbox.js';
import { IdParam } from '../../schemas/common.js';
import { CreateWaiverBody, Waiver, WaiverList, WaiverListQuery } from '../../schemas/waivers.js';
import { createWaiver, presentWaiver } from '../../services/waivers.js';
import { WaiverRepository } from '../../store/waivers.js';
import type { ApiContext } from '../../context.js';
import { newestFirstPage } from '../pagination.js';
import { problems } from '../problem.js';
import { defineRoute, type AnyRoute } from '../route.js';

export function waiverRoutes(ctx: ApiContext): AnyRoute[] {
  const waivers = new WaiverRepository(ctx.db);
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
        const view = await createWaiver(ctx, org, principal.kind === 'key' ? principal.keyId : null, body);
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
      responses: {
        200: { description: 'Waivers, newest first.', schema: WaiverList, headers: { Link: '' } },
      },
      handler: async ({ query, req, org }) => {
        const now = nowIso();
        return newestFirstPage(
          req,
          query,
          (limit, after) =>
            waivers.list(org, { siteId: query.siteId, active: query.active, now }, limit, after),
          (w) => [w.created_at, w.id],
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
      handler: async ({ params, org }) => {
        const w = await waivers.find(org, params.id);
        if (!w) throw problems.notFound('waiver');
        return { status: 200, body: presentWaiver(w) };
      },
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
      handler: async ({ params, org, principal }) => {
        const now = nowIso();
        const by = principal.kind === 'key' ? principal.keyId : null;
        const revoked = await ctx.db.transaction(async (trx) => {
          const repo = waivers.with(trx);
          if (!(await repo.revoke(org, params.id, now, by))) return undefined;
          const w = (await repo.find(org, params.id))!;
          await recordEvent(trx, { org, type: 'waiver.revoked', data: presentWaiver(w, now) });
          return w;
        });
        const w = revoked ?? (await waivers.find(org, params.id));
        if (!w) throw problems.notFound('waiver');
        if (revoked) ctx.logger.info({ waiver_id: w.id, org }, 'waiver revoked');
        return { status: 200, body: presentWaiver(w, now) };
      },
    }),
  ];
}
