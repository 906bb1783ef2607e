import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PNG } from 'pngjs';
import { ApiClient } from '../../../client/api-client.js';
import { sendScreenshots } from '../../../client/screenshots.js';
import { submitScan } from '../../../client/scan-submit.js';
import { defaultScanOptions } from '../../../scanner/options.js';
import { pngChunk as chunk } from '../../../scanner/png.js';
import { scan } from '../../../scanner/scan.js';
import { screenshotsToSend, submittedPages } from '../../../scanner/scan-body.js';
import { issueScreenshots, signedScreenshotPath } from '../../../api/services/scans/screenshot-links.js';
import { CHROMIUM_PATH } from '../../helpers/axe-browser.js';
import { chromium as chromiumPart, describeWith } from '../../helpers/requirements.js';
import type { Problem, ScanDetail, StoredScreenshots } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { elementPng } from '../../helpers/element-png.js';
import { hostilePngs } from '../../helpers/hostile-png.js';
import { agedScan } from '../../helpers/aged-scans.js';
import { RetentionSweep } from '../../../api/services/retention.js';

// The scanner's pictures of a loopback page, sent with the real client to a real server, read back through
// the API and through signed links; hostile uploads refused without a trace.

const PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>' +
  '<style>body{margin:0;background:#fff} main{padding:80px}</style></head><body><main><h1>Shop</h1>' +
  '<button id="buy" style="background:#c80064;width:100px;height:36px;border:0"></button></main></body></html>';

let site: Server;
let siteUrl: string;
beforeAll(async () => {
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

function hugeCanvas(): Buffer {
  const real = elementPng([1, 2, 3], 4, 4);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(100_000, 0);
  ihdr.writeUInt32BE(100_000, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  // The real file's chunks after its IHDR (8 signature bytes + 25 of IHDR).
  return Buffer.concat([real.subarray(0, 8), chunk('IHDR', ihdr), real.subarray(33)]);
}

describeWith(chromiumPart, 'element screenshots through the service', () => {
  describe.each(dbKinds)('%s', (db) => {
    const h = useHarness({ db, env: { PUBLIC_URL: 'https://a11y.example' } });
    let key: string;
    let otherKey: string;
    let scanId: string;
    let imageId: string;
    let png: Buffer;

    const rows = async () => Number((await h.db('scan_screenshots').count({ n: '*' }))[0].n);
    const post = (k: string, id: string, images: unknown[]) =>
      h.request<StoredScreenshots & Problem>('POST', `/api/v1/scans/${id}/screenshots`, {
        key: k,
        body: { images },
      });

    beforeAll(async () => {
      key = await h.createKey({ org: 'acme', scopes: ['ingest', 'read', 'manage'] });
      otherKey = await h.createKey({ org: 'globex', scopes: ['ingest', 'read'] });
    });

    test('the scanner pictures the violating element, the client sends it after the scan, a retry stores nothing new', async () => {
      const run = await scan({ ...defaultScanOptions(), chromePath: CHROMIUM_PATH, urls: [siteUrl] });
      const shots = screenshotsToSend(run);
      expect(shots.map((s) => [s.rule, s.selector])).toEqual([['button-name', '#buy']]);
      const client = new ApiClient({ baseUrl: h.url, apiKey: key, retries: 0 });
      const body = {
        url: siteUrl,
        siteId: 'shop',
        sha: 'a'.repeat(40),
        engine: run.engine,
        pages: submittedPages(run),
      };
      const created = await submitScan(
        client,
        body,
        (r) => `k-${r}`,
        () => {},
      );
      scanId = created.body.id;
      const keyFor = (r: string) => `shots-${r}`;
      expect(await sendScreenshots(client, scanId, shots, keyFor, () => {})).toEqual({
        stored: 1,
        already: 0,
        notSent: 0,
      });
      // Sent again under new keys (a re-run of the step): the same picture is the one already stored.
      const again = await sendScreenshots(
        client,
        scanId,
        shots,
        (r) => `again-${r}`,
        () => {},
      );
      expect(again).toEqual({ stored: 0, already: 1, notSent: 0 });
      expect(await rows()).toBe(1);

      const listed = await post(key, scanId, [
        {
          page_url: siteUrl,
          rule: 'button-name',
          selector: '#buy',
          png: Buffer.from(shots[0].png).toString('base64'),
        },
      ]);
      expect(listed.status).toBe(200);
      imageId = listed.body.images[0].id;
      const detail = await h.request<ScanDetail>('GET', `/api/v1/scans/${scanId}`, { key });
      expect(listed.body.images[0].fingerprint).toBe(
        detail.body.issues.find((i) => i.selector === '#buy')!.fingerprint,
      );

      // Read back through the API: the same bytes, a PNG of the button (its colour at the centre).
      const res = await fetch(`${h.url}/api/v1/scans/${scanId}/screenshots/${imageId}`, {
        headers: { 'x-api-key': key },
      });
      expect(res.headers.get('content-type')).toBe('image/png');
      png = Buffer.from(await res.arrayBuffer());
      expect(png.equals(Buffer.from(shots[0].png))).toBe(true);
      const decoded = PNG.sync.read(png);
      const i = (decoded.width * (decoded.height >> 1) + (decoded.width >> 1)) * 4;
      expect([...decoded.data.subarray(i, i + 3)]).toEqual([200, 0, 100]);
      expect(decoded.width).toBeGreaterThanOrEqual(116);
    }, 60_000);

    test('hostile pictures are refused with problem+json and store nothing', async () => {
      const good = elementPng([0, 0, 0], 10, 10);
      const item = (p: Buffer | string, over: Record<string, string> = {}) => ({
        page_url: siteUrl,
        rule: 'button-name',
        selector: '#buy',
        png: typeof p === 'string' ? p : p.toString('base64'),
        ...over,
      });
      const corrupt = Buffer.from(good);
      corrupt[40] ^= 0xff; // inside IDAT: its CRC no longer matches
      const cases: Array<[unknown[], number]> = [
        [[item(Buffer.from('GIF89a not a png at all, padded to some length'))], 422],
        [[item(corrupt)], 422],
        [[item(hugeCanvas())], 422],
        [[item(Buffer.concat([good, Buffer.from('trailing')]))], 422],
        [[item('!!!not base64!!!')], 422],
        [[item(Buffer.alloc(101 * 1024, 1))], 422],
        // Sound chunks around image data that does not decode, or that is not one still picture.
        ...hostilePngs().map(({ png }): [unknown[], number] => [[item(png)], 422]),
        [[item(good, { selector: '#nowhere' })], 422],
        [[item(good, { page_url: 'https://elsewhere.example/' })], 422],
        // A different picture of a violation that has one.
        [[item(good)], 409],
        [Array.from({ length: 21 }, () => item(good)), 422],
      ];
      for (const [images, status] of cases) {
        const res = await post(key, scanId, images);
        expect([res.status, res.headers.get('content-type')]).toEqual([
          status,
          'application/problem+json; charset=utf-8',
        ]);
      }
      // Another org's scan does not exist for this key.
      expect((await post(otherKey, scanId, [item(good)])).status).toBe(404);
      expect(await rows()).toBe(1);
    });

    test('a signed link opens without a session until it expires; tampered, expired or unknown is 404', async () => {
      const ctx = h.server.service.ctx;
      const shots = await issueScreenshots(ctx, 'acme', scanId, [
        (await h.db('scan_screenshots').first<{ fingerprint: string }>('fingerprint')).fingerprint,
      ]);
      const [shot] = [...shots.values()];
      expect(shot.alt).toBe('Screenshot of the element #buy that fails the rule button-name');
      expect(shot.url!.startsWith('https://a11y.example/screenshots/')).toBe(true);
      const local = shot.url!.replace('https://a11y.example', h.url);
      const ok = await fetch(local);
      expect([ok.status, ok.headers.get('content-type')]).toEqual([200, 'image/png']);
      expect(Buffer.from(await ok.arrayBuffer()).equals(png)).toBe(true);

      const u = new URL(local);
      const sig = u.searchParams.get('signature')!;
      const tampered = [
        local.replace(sig, (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1)),
        local.replace(/expires=\d+/, `expires=${Number(u.searchParams.get('expires')) + 1}`),
        local.replace(imageId, 'img_AAAAAAAAAAAAAAAAAAAA'),
        `${h.url}/screenshots/${imageId}.png`,
      ];
      for (const url of tampered) expect((await fetch(url)).status).toBe(404);
      const past = Math.floor(Date.now() / 1000) - 1;
      expect((await fetch(h.url + signedScreenshotPath(ctx, imageId, past))).status).toBe(404);
      const soon = Math.floor(Date.now() / 1000) + 2;
      const shortLived = h.url + signedScreenshotPath(ctx, imageId, soon);
      expect((await fetch(shortLived)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, (soon + 1) * 1000 - Date.now()));
      expect((await fetch(shortLived)).status).toBe(404);

      // Another org: no picture through the API, no links for its scan.
      const other = await fetch(`${h.url}/api/v1/scans/${scanId}/screenshots/${imageId}`, {
        headers: { 'x-api-key': otherKey },
      });
      expect(other.status).toBe(404);
      expect((await issueScreenshots(ctx, 'globex', scanId, [shot.id])).size).toBe(0);
    }, 30_000);

    test('the retention sweep removes an old scan with its pictures', async () => {
      const old = await agedScan(h, key, {
        siteId: 'old-site',
        branch: 'feature',
        c: '7',
        ageDays: 400,
        pages: [
          {
            url: 'https://old.example/',
            issues: [{ rule: 'image-alt', impact: 'critical', selector: '#x' }],
          },
        ],
      });
      const png = elementPng([9, 9, 9], 8, 8).toString('base64');
      const stored = await post(key, old, [
        { page_url: 'https://old.example/', rule: 'image-alt', selector: '#x', png },
      ]);
      expect(stored.status).toBe(201);
      const count = async () =>
        Number((await h.db('scan_screenshots').where({ scan_id: old }).count({ n: '*' }))[0].n);
      expect(await count()).toBe(1);
      const sweep = new RetentionSweep(h.server.service.ctx);
      for (let i = 0; i < 20 && (await count()) > 0; i++) await sweep.run();
      expect(await count()).toBe(0);
      expect(await h.db('scans').where({ id: old }).first()).toBeUndefined();
    });

    test('deleting the scan removes its pictures, and their links stop working', async () => {
      const link =
        h.url + signedScreenshotPath(h.server.service.ctx, imageId, Math.floor(Date.now() / 1000) + 600);
      expect((await fetch(link)).status).toBe(200);
      const readOnly = await h.createKey({ org: 'acme', scopes: ['read'] });
      expect((await post(readOnly, scanId, [{}])).status).toBe(403);
      const deleted = await h.request('DELETE', `/api/v1/scans/${scanId}`, { key });
      expect(deleted.status).toBe(204);
      expect((await fetch(link)).status).toBe(404);
      expect(await rows()).toBe(0);
    });
  });
});
