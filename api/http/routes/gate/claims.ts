import { acceptClaim, readClaimHistory } from '../../../services/gate/claim-acceptance.js';
import {
  ClaimAcceptBody,
  ClaimAcceptedSchema,
  ClaimHistoryParams,
  ClaimHistorySchema,
  ClaimParams,
} from '../../../schemas/gate/claims.js';
import type { ApiContext } from '../../../context.js';
import { defineRoute, type AnyRoute } from '../../route.js';

/** Claimed fixes of deploy events: a person's acceptance, an issue's history (docs/gate.md). */
export function claimRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/deploy/:id/claims/:fingerprint/accept',
      tag: 'Deploy gate',
      summary: 'A person accepts the new text of a claimed fix (`needs_person`)',
      description:
        'A text rule (an alt, a label, a name) passes on any text, so its fix stands only when a person reads ' +
        'the new text beside the old (the claim’s `before` and `after`) and accepts it, by name: recorded once ' +
        'with the time, shown in the deploy event and kept with the issue’s history. `404` when the event has ' +
        'no such claim, `409` when the claim is not `needs_person` or was accepted already.',
      access: 'gate',
      params: ClaimParams,
      body: ClaimAcceptBody,
      responses: { 200: { description: 'The claim, accepted.', schema: ClaimAcceptedSchema } },
      handler: async ({ params, body, org }) => ({
        status: 200,
        body: await acceptClaim(
          ctx,
          org,
          { deployId: params.id, fingerprint: params.fingerprint },
          body.name,
        ),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/sites/:siteId/issues/:fingerprint/claims',
      tag: 'Deploy gate',
      summary: 'An issue’s history of claimed fixes',
      description:
        'Every claim on the issue with this fingerprint in the site’s deploy events, newest first: the outcome, ' +
        'who made the change (agent, model, session link) and who accepted a text rule’s new text.',
      access: ['gate', 'read'],
      params: ClaimHistoryParams,
      responses: { 200: { description: 'The claims.', schema: ClaimHistorySchema } },
      handler: async ({ params, org }) => ({
        status: 200,
        body: await readClaimHistory(ctx, org, params.siteId, params.fingerprint),
      }),
    }),
  ];
}
