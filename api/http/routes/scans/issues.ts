import type { ApiContext } from '../../../context.js';
import { IdParam, pageOf } from '../../../schemas/common.js';
import { ScanIssue } from '../../../schemas/scans/output.js';
import { z } from '../../../schemas/zod.js';
import { scanWaivers } from '../../../services/scans/scans.js';
import { presentScanIssue } from '../../../services/scans/views.js';
import { pagesByIndex } from '../../../store/scans/browse.js';
import { readIssues } from '../../../store/scans/issue-cursor.js';
import { findScan } from '../../../store/scans/scans.js';
import { decodeCursor, toPage } from '../../pagination.js';
import { problems } from '../../problem.js';
import { defineRoute, type AnyRoute } from '../../route.js';

const IssuePageQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .openapi({ description: 'Issues per page (1-1000).' }),
  cursor: z.string().max(500).optional().openapi({ description: 'The `next_cursor` of the previous page.' }),
});

const ScanIssuePage = pageOf(ScanIssue, 'ScanIssuePage');

/** A scan's issues page by page, for clients that would rather not read the streamed whole. */
export function scanIssueRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/scans/:id/issues',
      tag: 'Scans',
      summary: "A page of a scan's issues, in submission order",
      description:
        'The issues of `GET /api/v1/scans/{id}`, the same fields, `limit` at a time (`next_cursor`, ' +
        '`Link: rel="next"`). Memory and time per page do not grow with the scan.',
      access: 'read',
      params: IdParam,
      query: IssuePageQuery,
      responses: { 200: { description: 'A page of issues.', schema: ScanIssuePage } },
      handler: async ({ params, query, org, req }) => {
        const scan = await findScan(ctx.db, org, params.id);
        if (!scan) throw problems.notFound('scan');
        const after = decodeCursor(query.cursor, 1)?.[0];
        if (after !== undefined && typeof after !== 'number') {
          throw problems.validation([
            { pointer: '#/query/cursor', detail: 'is not a cursor this API issued' },
          ]);
        }
        const rows = await readIssues(ctx.db, scan.id, {
          order: 'submission',
          after: after ?? 0,
          limit: query.limit + 1,
        });
        // Only the pages of this page's issues: a scan may have 100,000.
        const pages = await pagesByIndex(
          ctx.db,
          scan.id,
          rows.map((i) => i.pageIndex),
        );
        const pageUrls = new Map(pages.map((p) => [p.index, p.url]));
        const waiverOf = await scanWaivers(ctx, scan, pages);
        const page = toPage(
          req,
          rows,
          query.limit,
          (i) => [i.id],
          (i) => presentScanIssue(i, pageUrls.get(i.pageIndex) ?? '', waiverOf(i)),
        );
        return { status: 200, headers: page.headers, body: page.body };
      },
    }),
  ];
}
