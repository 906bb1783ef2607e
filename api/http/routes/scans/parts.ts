import type { ApiContext } from '../../../context.js';
import { IdParam } from '../../../schemas/common.js';
import { ScanPartBody, ScanPartHead } from '../../../schemas/scans/scans.js';
import { CreatedScan, ScanPartAccepted } from '../../../schemas/scans/output.js';
import { appendShardPart } from '../../../services/scans/shards.js';
import { problems } from '../../problem.js';
import { appendScanPart, completeScan } from '../../../services/scans/parts.js';
import { presentCreatedScan } from '../../../services/scans/scans.js';
import { readPagedBody } from '../../scan-pages.js';
import { defineRoute, type AnyRoute } from '../../route.js';

/** A scan sent in parts: pages appended to an open scan, then its completion. */
export function scanPartRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/scans/:id/pages',
      queued: true,
      tag: 'Scans',
      summary: 'Append a part (a batch of pages) to an open scan',
      description:
        'The pages get the next indexes; the limits apply per request. Send an `Idempotency-Key` with each ' +
        'part: the part is stored with its key in one transaction, so a retry of an acknowledged part (even ' +
        'after a server crash) adds nothing and answers `part.replayed: true`. 404 when the scan is not open ' +
        '(unknown, removed after its `expires_at`); 409 when it is complete. A part that names its `shard` ' +
        'belongs to that shard: its part 1 replaces what an earlier run of the shard sent, its last part ' +
        'reports the shard, and the last shard to report completes a scan opened with `shards` (the answer ' +
        'then has `status: complete` and the `scan`).',
      access: 'ingest',
      params: IdParam,
      body: ScanPartBody,
      rawBody: true,
      responses: { 200: { description: 'The open scan after this part.', schema: ScanPartAccepted } },
      handler: async ({ params, org, req }) => {
        const { head, pages } = readPagedBody(req.rawBody, ScanPartHead, ScanPartBody);
        const part = { key: req.get('idempotency-key'), requestHash: req.bodyHash };
        if (head.shard === undefined) {
          if (head.shard_part !== undefined || head.shard_parts !== undefined) {
            throw problems.validation([
              { pointer: '#/shard', detail: 'is required with shard_part and shard_parts' },
            ]);
          }
          return { status: 200, body: await appendScanPart(ctx, org, params.id, pages, part) };
        }
        const shard = {
          shard: head.shard,
          shardPart: head.shard_part ?? 1,
          shardParts: head.shard_parts ?? 1,
        };
        return { status: 200, body: await appendShardPart(ctx, org, params.id, pages, part, shard) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/scans/:id/complete',
      queued: true,
      tag: 'Scans',
      summary: 'Complete a scan sent in parts',
      description:
        'Computes the warnings over every page and the rules that ran, gives the scan its creation time and ' +
        'writes the `scan.created` event: from now on lists, the gate and the VPAT see it. Completing a ' +
        'complete scan answers it again (no second event). 404 when the scan is unknown or expired; 409 with ' +
        '`missing_shards` when it was opened with `shards` and some have not reported (it stays open).',
      access: 'ingest',
      params: IdParam,
      responses: { 200: { description: 'The complete scan: summary and warnings.', schema: CreatedScan } },
      handler: async ({ params, org }) => {
        const scan = await completeScan(ctx, org, params.id);
        return {
          status: 200,
          headers: { Location: `/api/v1/scans/${scan.id}` },
          body: presentCreatedScan(scan),
        };
      },
    }),
  ];
}
