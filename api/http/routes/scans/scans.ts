import type { Response } from 'express';
import { IdParam } from '../../../schemas/common.js';
import type { ScanWaiverLookup } from '../../../domain/waivers/scan-waivers.js';
import { ingestScan, presentCreatedScan, scanWaivers } from '../../../services/scans/scans.js';
import { presentScanIssue, presentScanListItem, presentScanPage } from '../../../services/scans/views.js';
import { CreateScanBody, CreateScanHead, ScanListQuery } from '../../../schemas/scans/scans.js';
import {
  CreatedScan,
  GroupScanComplete,
  OpenScan,
  ScanDetail,
  ScanList,
} from '../../../schemas/scans/output.js';
import { openGroupScan } from '../../../services/scans/groups.js';
import { z } from '../../../schemas/zod.js';
import { readPagedBody } from '../../scan-pages.js';
import { readIssues } from '../../../store/scans/issue-cursor.js';
import {
  findScan,
  listScanPages,
  listScans,
  type ScanPageRecord,
  type ScanRecord,
} from '../../../store/scans/scans.js';
import type { ApiContext } from '../../../context.js';
import { newestFirstPage } from '../../pagination.js';
import { problems } from '../../problem.js';
import { defineRoute, type AnyRoute } from '../../route.js';
import { writeChunk } from './stream.js';
import { nextTurn } from '../../../domain/turns.js';

/** Issues are read and written this many at a time: memory stays flat whatever the scan size. */
const STREAM_BATCH = 1000;

/**
 * Streams `{…scan, pages: […], issues: […], waived}`: the pages are held (bounded by the page limit) and
 * written in batches, the issues are read through the issue cursor and written in batches with
 * back-pressure.
 * Each issue is matched against the site's active waivers in memory as it passes, so the count of
 * waived issues is known only at the end and is written after the issues (JSON objects are unordered).
 */
async function streamScan(
  ctx: ApiContext,
  res: Response,
  scan: ScanRecord,
  pages: ScanPageRecord[],
  waiverOf: ScanWaiverLookup,
) {
  const pageUrls = new Map(pages.map((p) => [p.index, p.url]));
  const head = JSON.stringify({
    ...presentScanListItem(scan),
    rules_run: scan.rulesRun,
  });
  res.status(200).type('application/json');
  // Pages too are written a batch at a time, so no single turn serialises all of them.
  await writeChunk(res, head.slice(0, -1) + ',"pages":[');
  for (let from = 0; from < pages.length; from += STREAM_BATCH) {
    const text = pages.slice(from, from + STREAM_BATCH).map((p) => JSON.stringify(presentScanPage(p)));
    await writeChunk(res, (from === 0 ? '' : ',') + text.join(','));
    await nextTurn();
  }
  await writeChunk(res, '],"issues":[');
  let after = 0;
  let first = true;
  let waived = 0;
  for (;;) {
    if (res.destroyed) return;
    const batch = await readIssues(ctx.db, scan.id, { order: 'submission', after, limit: STREAM_BATCH });
    if (batch.length > 0) {
      const text = batch
        .map((i) => {
          const waiverId = waiverOf(i);
          if (waiverId) waived++;
          return JSON.stringify(presentScanIssue(i, pageUrls.get(i.pageIndex) ?? '', waiverId));
        })
        .join(',');
      await writeChunk(res, (first ? '' : ',') + text);
      first = false;
      after = batch[batch.length - 1].id;
    }
    if (batch.length < STREAM_BATCH) break;
    await nextTurn();
  }
  res.end(`],"waived":${waived}}`);
}

async function sendScan(ctx: ApiContext, org: string, id: string, res: Response): Promise<'sent'> {
  const scan = await findScan(ctx.db, org, id);
  if (!scan) throw problems.notFound('scan');
  const pages = await listScanPages(ctx.db, scan.id);
  const waiverOf = await scanWaivers(ctx, scan, pages);
  try {
    await streamScan(ctx, res, scan, pages, waiverOf);
  } catch (err) {
    // The status line is gone: all we can do is cut the response so the client sees it is incomplete.
    ctx.logger.error({ err, scan_id: scan.id }, 'streaming a scan failed');
    res.destroy(err as Error);
  }
  return 'sent';
}

/** `POST /api/v1/scans`: a whole scan, a scan opened for parts, or the scan a group key names. */
function createScanRoute(ctx: ApiContext): AnyRoute {
  return defineRoute({
    method: 'post',
    path: '/api/v1/scans',
    queued: true,
    tag: 'Scans',
    summary: 'Submit a scan: pages with native issues, raw axe-core results or pa11y results',
    description:
      'Stored in one transaction (all or nothing). URLs and selectors are normalised and every issue gets a ' +
      'fingerprint. More pages or issues than the configured limits answer 413 with a pointer; `html` longer ' +
      'than the limit is truncated with a warning. The site is created on first use. With ' +
      '`complete: false` the scan is opened for parts (POST /api/v1/scans/{id}/pages, then /complete) and ' +
      'stays invisible until completed. With `scan_group` the parallel jobs of one CI run open or find one ' +
      'scan, which each job sends its shard of pages to (docs/scans.md, "Sharded scans").',
    access: 'ingest',
    body: CreateScanBody,
    rawBody: true,
    responses: {
      201: {
        description:
          'The stored scan: summary and warnings. With `complete: false`, the open scan (status `open`), ' +
          'to be continued with parts.',
        schema: z.union([CreatedScan, OpenScan]),
        headers: { Location: '' },
      },
      200: {
        description:
          'With `scan_group`: the scan the group key already names on the site, open (`status: open`, ' +
          'with its shards) or complete (`status: complete`).',
        schema: z.union([OpenScan, GroupScanComplete]),
        headers: { Location: '' },
      },
    },
    handler: async ({ org, req }) => {
      const { head, pages } = readPagedBody(req.rawBody, CreateScanHead, CreateScanBody);
      if (head.scan_group !== undefined) {
        const found = await openGroupScan(ctx, org, head, pages);
        const location = { Location: `/api/v1/scans/${found.body.id}` };
        return { status: found.created ? 201 : 200, headers: location, body: found.body };
      }
      const result = await ingestScan(ctx, org, head, pages);
      const scan = result.status === 'open' ? result.scan : presentCreatedScan(result.scan);
      return { status: 201, headers: { Location: `/api/v1/scans/${scan.id}` }, body: scan };
    },
  });
}

export function scanRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    createScanRoute(ctx),
    defineRoute({
      method: 'get',
      path: '/api/v1/scans/:id',
      tag: 'Scans',
      summary: 'Get a scan with every page and every issue',
      description:
        'Issues are in submission order, each with its fingerprint, WCAG criteria, page URL and `waiver_id` ' +
        '(the oldest active waiver that covers it now, else null; `waived` counts them). Waivers are a live ' +
        'view at read time: they change after the scan, and the deploy event records what a gate waived. Streamed.',
      access: 'read',
      params: IdParam,
      responses: { 200: { description: 'The scan.', schema: ScanDetail } },
      handler: async ({ params, org, res }) => sendScan(ctx, org, params.id, res),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/scans',
      tag: 'Scans',
      summary: 'List scan summaries, newest first',
      description: 'Filter by `siteId`, `sha` and `branch` (all optional, combined with AND).',
      access: 'read',
      query: ScanListQuery,
      responses: { 200: { description: 'Scans, newest first.', schema: ScanList, headers: { Link: '' } } },
      handler: ({ query, req, org }) =>
        newestFirstPage(
          req,
          query,
          (limit, after) =>
            listScans(
              ctx.db,
              org,
              { siteId: query.siteId, sha: query.sha, branch: query.branch },
              limit,
              after,
            ),
          (s) => [s.createdAt, s.id],
          presentScanListItem,
        ),
    }),
  ];
}
