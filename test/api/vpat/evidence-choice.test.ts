import { readFileSync } from 'node:fs';
import type { Assessment, CreatedScan, Problem, Statement, VpatReport } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { COMPLETE_ANSWERS } from '../../helpers/statement-seed.js';

// What a report, a statement and an assessment's sample rest on: pages counted once per address (a URL at
// two viewports, `/` beside `/index.html`), and by default the latest *full* scan of the base branch, never a
// partial one, which covers some pages only.

const product = {
  name: 'Shop',
  version: '2027.1',
  description: 'The web shop: catalogue, cart and checkout.',
};
const imageAlt = { rule: 'image-alt', impact: 'critical', selector: 'main img', wcag: ['1.1.1'] };
// An axe-core result that found nothing (color-contrast among the rules that ran), as the API takes it.
const cleanAxe = JSON.parse(
  readFileSync(new URL('../../fixtures/axe/clean.json', import.meta.url), 'utf8'),
) as unknown;

describe.each(dbKinds)('the evidence a report rests on (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });
  const post = <T>(path: string, body: unknown) => h.request<T>('POST', path, { key: h.key, body });

  async function scan(siteId: string, body: Record<string, unknown>): Promise<string> {
    const res = await post<CreatedScan>('/api/v1/scans', {
      siteId,
      url: 'https://shop.example/',
      branch: 'main',
      rules_run: ['image-alt', 'document-title'],
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  async function generate(body: Record<string, unknown>): Promise<VpatReport> {
    const res = await post<VpatReport>('/api/v1/vpat/generate', { product, ...body });
    expect(res.status).toBe(201);
    return res.body;
  }

  test('one page at two viewports and as /index.html is 1 page in the report, the statement and the sample', async () => {
    await scan('one-page', {
      pages: [
        { url: 'https://shop.example/', viewport: '390x844', issues: [imageAlt] },
        { url: 'https://shop.example/', viewport: '1280x720', issues: [imageAlt] },
        { url: 'https://shop.example/index.html', issues: [imageAlt] },
      ],
    });
    const draft = await generate({ siteId: 'one-page' });
    expect(draft.scan.pages).toBe(1);
    expect(draft.evaluation_methods).toContain(' of 1 page of ');

    const review = await post<VpatReport>(`/api/v1/vpat/${draft.id}/review`, {
      author: 'Ada Reviewer',
      decisions: draft.criteria
        .filter((c) => c.needs_review)
        .map((c) => ({ criterion: c.id, conformance: 'supports', remarks: 'Checked by hand.' })),
    });
    expect(review.status).toBe(201);
    const final = await post<VpatReport>(`/api/v1/vpat/${review.body.id}/publish`, {
      publisher: 'Grace Officer',
    });
    expect(final.status).toBe(201);
    const st = await post<Statement>('/api/v1/statements', { siteId: 'one-page', answers: COMPLETE_ANSWERS });
    expect(st.status).toBe(201);
    expect(st.body.preparation.evidence.scan.pages).toBe(1);
    const failing = st.body.non_accessible.non_compliance.criteria.find((c) => c.id === '1.1.1')!;
    expect([failing.pages, failing.pages_affected, failing.issues]).toEqual([['/'], 1, 3]);
    const md = await h.request('GET', `/api/v1/statements/${st.body.id}?format=md`, { key: h.key });
    expect(md.text).toContain('scan of 1 page ');

    // The sample draws from one page, not three.
    const sample = (body: Record<string, unknown>) =>
      post<Assessment>('/api/v1/assessments', {
        siteId: 'one-page',
        title: 'Audit',
        standard: { wcag: '2.2', level: 'AA' },
        sample: body,
      });
    const all = await sample({ pages: [], random: 1, seed: 7 });
    expect(all.status).toBe(201);
    expect(all.body.sample.pages.map((p) => p.url)).toEqual(['https://shop.example/']);
    const more = (await sample({ pages: [], random: 2 })) as unknown as { status: number; body: Problem };
    expect(more.status).toBe(422);
    expect(more.body.errors).toEqual([
      { pointer: '#/sample/random', detail: 'the scan has only 1 other pages to draw from' },
    ]);
    // Both names of the home page chosen: sampled once, as first named.
    const both = await sample({ pages: ['https://shop.example/index.html', 'https://shop.example/'] });
    expect(both.body.sample.pages.map((p) => p.url)).toEqual(['https://shop.example/index.html']);
  });

  test("a row's remarks and the report's failing rules count a page at two viewports once", async () => {
    const row = (r: VpatReport, id: string) => r.criteria.find((c) => c.id === id)!;
    // The home page fails image-alt at both viewports; the cart passes.
    await scan('viewports', {
      pages: [
        { url: 'https://shop.example/', viewport: '390x844', issues: [imageAlt] },
        { url: 'https://shop.example/', viewport: '1280x720', issues: [imageAlt] },
        { url: 'https://shop.example/cart', issues: [] },
      ],
    });
    const failing = await generate({ siteId: 'viewports' });
    // 1 of 2 pages, not 2 of 3: half the pages or fewer, so partial support rather than none.
    expect(row(failing, '1.1.1')).toMatchObject({
      conformance: 'partially-supports',
      evidence: { issues: 2, pages_affected: 1, pages_total: 2 },
    });
    expect(row(failing, '1.1.1').remarks).toContain('2 issues on 1 of 2 pages (half or fewer');
    expect(failing.violations).toEqual([{ rule: 'image-alt', issues: 2, pages_affected: 1 }]);

    // color-contrast ran at both viewports of the home page; the cart (a native page) did not list it.
    const ranOnOne = await post<CreatedScan>('/api/v1/scans', {
      siteId: 'viewports',
      url: 'https://shop.example/',
      branch: 'main',
      pages: [
        { url: 'https://shop.example/', viewport: '390x844', axe: cleanAxe },
        { url: 'https://shop.example/', viewport: '1280x720', axe: cleanAxe },
        { url: 'https://shop.example/cart', issues: [] },
      ],
    });
    expect(ranOnOne.status).toBe(201);
    const partly = await generate({ siteId: 'viewports', scan_id: ranOnOne.body.id });
    expect(row(partly, '1.4.3').basis).toBe('rules-not-run');
    expect(row(partly, '1.4.3').remarks).toContain('ran on only 1 of 2 pages');
    expect(row(partly, '1.4.3').remarks).toContain('(/cart;');
  });

  test('a partial scan of the base branch is never the default evidence, nor a newer scan a report is behind', async () => {
    const full = await scan('partly', {
      pages: ['/', '/cart', '/checkout'].map((p) => ({ url: `https://shop.example${p}`, issues: [] })),
    });
    const draft = await generate({ siteId: 'partly' });
    expect(draft.scan_id).toBe(full);

    const partial = await scan('partly', {
      scope: 'partial',
      pages: [{ url: 'https://shop.example/cart', issues: [imageAlt] }],
    });
    const again = await generate({ siteId: 'partly' });
    expect(again.scan_id).toBe(full);
    expect(again.scan.pages).toBe(3);

    const behind = await h.request<VpatReport>('GET', `/api/v1/vpat/${draft.id}`, { key: h.key });
    expect(behind.body.behind).toMatchObject({ scans: 0, latest_scan_id: null });
    const refreshed = await post<VpatReport>(`/api/v1/vpat/${draft.id}/refresh`, {});
    expect(refreshed.status).toBe(201);
    expect(refreshed.body.scan_id).toBe(full);

    const a = await post<Assessment>('/api/v1/assessments', {
      siteId: 'partly',
      title: 'Audit',
      standard: { wcag: '2.2', level: 'AA' },
      sample: { pages: [], random: 3, seed: 1 },
    });
    expect(a.status).toBe(201);
    expect(a.body.scan_id).toBe(full);

    // A newer full scan is still followed.
    const newer = await scan('partly', {
      pages: [{ url: 'https://shop.example/', issues: [] }],
    });
    expect((await generate({ siteId: 'partly' })).scan_id).toBe(newer);
    const later = await h.request<VpatReport>('GET', `/api/v1/vpat/${draft.id}`, { key: h.key });
    expect(later.body.behind).toMatchObject({ scans: 1, latest_scan_id: newer });
    expect(partial).not.toBe(newer);
  });
});
