import type { ApiContext } from '../../../context.js';
import { ScreenshotParams, ScreenshotUpload, StoredScreenshots } from '../../../schemas/scans/screenshots.js';
import { IdParam } from '../../../schemas/common.js';
import { z } from '../../../schemas/zod.js';
import { readScanScreenshot } from '../../../services/scans/screenshot-links.js';
import { addScreenshots } from '../../../services/scans/screenshots.js';
import { defineRoute, type AnyRoute } from '../../route.js';

/** Pictures of a scan's violations: sent by the scanner after its pages, read back by the scan's readers. */
export function scanScreenshotRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/scans/:id/screenshots',
      queued: true,
      tag: 'Scans',
      summary: "Store pictures of a scan's violations",
      description:
        'Each picture names its violation by the page (`page_url` and `viewport`, as the scan lists them), the rule and the ' +
        'selector, and is a PNG of at most 100 KB and 4096 pixels a side, checked chunk by chunk. All or ' +
        'nothing: 422 when a picture is not a valid PNG or names no violation of the scan, 413 past 20 ' +
        'pictures a page or 500 a scan. The same picture of a violation sent again stores nothing (`created: ' +
        'false`); a different one answers 409. An open scan (sent in parts or shards) takes pictures of the ' +
        "pages it holds so far, read only once it completes; a shard sent again drops its pages' pictures. " +
        'Stored with the scan: retention and deletion remove them.',
      access: 'ingest',
      params: IdParam,
      body: ScreenshotUpload,
      responses: {
        201: { description: 'At least one picture was stored.', schema: StoredScreenshots },
        200: { description: 'Every picture was already stored.', schema: StoredScreenshots },
      },
      handler: async ({ params, body, org }) => {
        const uploads = body.images.map((i) => ({
          pageUrl: i.page_url,
          viewport: i.viewport ?? null,
          rule: i.rule,
          selector: i.selector,
          png: Buffer.from(i.png, 'base64'),
        }));
        const stored = await addScreenshots(ctx, org, params.id, uploads);
        const images = stored.map((s, i) => ({
          id: s.id,
          page_index: s.pageIndex,
          page_url: body.images[i].page_url,
          rule: s.rule,
          selector: s.selector,
          fingerprint: s.fingerprint,
          width: s.width,
          height: s.height,
          bytes: s.bytes,
          created: s.created,
        }));
        return { status: stored.some((s) => s.created) ? 201 : 200, body: { images } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/scans/:id/screenshots/:image',
      tag: 'Scans',
      summary: "One picture of a scan's violation (PNG)",
      description: "The PNG as stored. 404 for another org's scan or picture.",
      access: 'read',
      params: ScreenshotParams,
      responses: {
        200: { description: 'The PNG.', content: { 'image/png': z.string().openapi({ format: 'binary' }) } },
      },
      handler: async ({ params, org, res }) => {
        const png = await readScanScreenshot(ctx, org, params.id, params.image);
        res.status(200).set('cache-control', 'private, max-age=3600').type('image/png').send(png);
        return 'sent';
      },
    }),
  ];
}
