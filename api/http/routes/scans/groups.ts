import type { ApiContext } from '../../../context.js';
import { GroupScanCompleted } from '../../../schemas/scans/output.js';
import { CompleteGroupBody } from '../../../schemas/scans/shards.js';
import { completeGroup } from '../../../services/scans/groups.js';
import { defineRoute, type AnyRoute } from '../../route.js';

/** A sharded scan named by its group key: the final job of a run completes it by that key. */
export function scanGroupRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/scans/complete',
      queued: true,
      tag: 'Scans',
      summary: 'Complete the sharded scan a group key names',
      description:
        'For the final job of a sharded run: completes the open scan that `scan_group` names on the site, ' +
        'or answers it when it is complete already (`completed_now: false`). A scan opened with `shards` ' +
        'whose shards have not all reported stays open: 409 with `missing_shards`. 404 when no scan has ' +
        'the key.',
      access: 'ingest',
      body: CompleteGroupBody,
      responses: { 200: { description: 'The complete scan and its shards.', schema: GroupScanCompleted } },
      handler: async ({ body, org }) => {
        const answer = await completeGroup(ctx, org, body);
        return { status: 200, headers: { Location: `/api/v1/scans/${answer.id}` }, body: answer };
      },
    }),
  ];
}
