import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import type { CreatedScan, Problem, VpatReport } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { readPdf } from '../../helpers/pdf.js';

// Real axe-core output of a clean page (it lists the rules that ran), passed through as it is.
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/axe/${name}.json`, import.meta.url), 'utf8')) as unknown;
// The CI preview host the scan ran against: a customer must never read it in the report.
const PREVIEW = 'http://127.0.0.1:4311';

describe.each(dbKinds)('the product’s public address in the report (%s)', (db) => {
  const h = useHarness({ db });
  let key: string;

  beforeAll(async () => {
    key = await h.createKey({ org: 'acme', scopes: ['ingest', 'read', 'manage'], name: 'bot' });
    // The rules ran on the home page only (the native page lists none): 1.4.3 is partially tested.
    const scan = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key,
      body: {
        siteId: 'shop',
        url: `${PREVIEW}/`,
        branch: 'main',
        pages: [
          { url: `${PREVIEW}/`, axe: fixture('clean') },
          { url: `${PREVIEW}/cart?step=2`, issues: [] },
        ],
      },
    });
    expect(scan.status).toBe(201);
    const site = await h.request('PATCH', '/api/v1/sites/shop', {
      key,
      body: { url: 'https://shop.example/' },
    });
    expect(site.status).toBe(200);
  });

  const generate = (product: Record<string, unknown>) =>
    h.request<VpatReport>('POST', '/api/v1/vpat/generate', {
      key,
      body: { siteId: 'shop', product: { name: 'Shop', version: '5', description: 'The shop.', ...product } },
    });

  test('by default the site’s address; every output names it and none names the scanned host', async () => {
    const res = await generate({});
    expect(res.status).toBe(201);
    const r = res.body;
    expect(r.product.url).toBe('https://shop.example/');
    const partial = r.criteria.find((c) => c.id === '1.4.3')!;
    expect(partial.remarks).toContain('ran on only 1 of 2 pages');
    // The untested page by its public path, relative to the product's address.
    expect(partial.remarks).toContain('(/cart?step=2;');
    expect(partial.remarks).not.toContain('127.0.0.1');
    expect(r.evaluation_methods).toContain('of https://shop.example/');

    const html = (await h.request('GET', `/api/v1/vpat/${r.id}?format=html`, { key })).text;
    expect(html).toMatch(/<dt>Public address<\/dt><dd>(<a [^>]*>)?https:\/\/shop\.example\//);
    const md = (await h.request('GET', `/api/v1/vpat/${r.id}?format=md`, { key })).text;
    expect(md).toContain('- **Public address:** https://shop.example/');
    const acr = yaml.load((await h.request('GET', `/api/v1/vpat/${r.id}?format=openacr`, { key })).text) as {
      notes: string;
      evaluation_methods_used: string;
    };
    expect(acr.notes).toContain("The product's public address: https://shop.example/.");
    const pdfRes = await fetch(`${h.url}/api/v1/vpat/${r.id}?format=pdf`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const pdf = readPdf(Buffer.from(await pdfRes.arrayBuffer())).text;
    expect(pdf).toContain('Public address: https://shop.example/');
    for (const [format, text] of [
      ['html', html],
      ['md', md],
      ['openacr', JSON.stringify(acr)],
      ['pdf', pdf],
    ]) {
      expect([format, text.includes('127.0.0.1')]).toEqual([format, false]);
    }
  });

  test('the request’s address wins over the site’s and is carried into the next version', async () => {
    const res = await generate({ url: 'https://www.shop.example/store/' });
    expect(res.body.product.url).toBe('https://www.shop.example/store/');
    const next = await h.request<VpatReport>('POST', `/api/v1/vpat/${res.body.id}/review`, {
      key,
      body: {
        author: 'Grace Officer',
        decisions: [{ criterion: '1.4.3', conformance: 'supports', remarks: 'Checked by hand.' }],
      },
    });
    expect(next.body.product.url).toBe('https://www.shop.example/store/');
  });

  test('an address that is not http(s) is refused with a pointer, and nothing is stored', async () => {
    const before = (await h.db('vpat_reports').count({ n: '*' }))[0].n;
    for (const url of ['javascript:alert(1)', 'ftp://shop.example/', 'shop.example']) {
      const res = await generate({ url });
      expect([url, res.status]).toEqual([url, 422]);
      expect((res.body as unknown as Problem).errors!.map((e) => e.pointer)).toContain('#/product/url');
    }
    expect((await h.db('vpat_reports').count({ n: '*' }))[0].n).toBe(before);
  });
});
