import type { AssessmentDetail, Problem } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { SITE, seedScan } from './seed.js';

/**
 * An import is bounded like creating the same assessment: the sample's pages (500), the page URL
 * (2000 characters), the results a file may hold and its nesting depth, each refused with the limit
 * named and nothing stored.
 */

const RESULTS_PER_IMPORT = 87 * 501;
const page = (i: number) => `https://shop.example/page/${i}`;
const passed = (subject: string) => ({
  test: 'WCAG22:non-text-content',
  subject: { id: subject },
  result: { outcome: 'earl:passed', description: '' },
  assertedBy: 'Ann',
});

function evaluation(urls: string[], auditSample: unknown[] = [passed('_:website')]) {
  return {
    '@context': {},
    selectSample: { structuredSample: urls.map((source, i) => ({ id: `_:page_${i + 1}`, source })) },
    auditSample,
  };
}

describe.each(dbKinds)('assessment import limits (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });
  const send = (doc: unknown) =>
    h.request<Problem & AssessmentDetail>('POST', `/api/v1/assessments/import?siteId=${SITE}`, {
      key: h.key,
      raw: typeof doc === 'string' ? doc : JSON.stringify(doc),
      headers: { 'content-type': 'application/ld+json' },
    });
  const stored = async () => {
    const count = async (table: string) => Number((await h.db(table).count({ n: '*' }).first())?.n);
    return [await count('assessments'), await count('assessment_results')];
  };
  /** Refused with this status and limit, and nothing stored. */
  async function refused(doc: unknown, limit: string | undefined, status = 422) {
    const before = await stored();
    const res = await send(doc);
    expect([res.status, res.headers.get('content-type')]).toEqual([
      status,
      expect.stringMatching(/^application\/problem\+json/),
    ]);
    if (limit) expect([res.body.limit, res.body.detail]).toEqual([limit, expect.stringContaining(limit)]);
    expect(await stored()).toEqual(before);
    return res.body;
  }

  beforeAll(async () => {
    await seedScan(h, h.key);
  });

  test('GET /api/v1 publishes the import limits', async () => {
    const info = await h.request<{ limits: Record<string, number> }>('GET', '/api/v1');
    expect(info.body.limits).toMatchObject({
      pages_per_assessment: 500,
      results_per_import: RESULTS_PER_IMPORT,
      json_depth_per_import: 64,
      json_values_per_import: 20 * RESULTS_PER_IMPORT,
      json_ld_terms_per_import: 1000,
    });
  });

  test('a hasPart chain 5,000 deep: 422 json_depth_per_import, not a 500', async () => {
    // Written as text: JSON.stringify itself recurses too deep for such a chain.
    const part = JSON.stringify(passed('_:page_1')).slice(0, -1);
    const chain = `${part},"hasPart":[`.repeat(5000) + `${part}}` + ']}'.repeat(5000);
    const doc = JSON.stringify(evaluation([page(1)], [])).replace(
      '"auditSample":[]',
      `"auditSample":[${chain}]`,
    );
    const body = await refused(doc, 'json_depth_per_import');
    expect(body.limit_value).toBe(64);
  });

  test('a sample of 500 pages is imported; 501 pages are refused with pages_per_assessment', async () => {
    const urls = Array.from({ length: 501 }, (_, i) => page(i));
    const at = await send(evaluation(urls.slice(0, 500), [passed('_:page_500')]));
    expect([at.status, at.body.sample.pages.length]).toEqual([201, 500]);
    const body = await refused(evaluation(urls), 'pages_per_assessment');
    expect(body.limit_value).toBe(500);
  });

  test('30,000 distinct pages: refused with pages_per_assessment', async () => {
    const urls = Array.from({ length: 30_000 }, (_, i) => page(i));
    const body = await refused(evaluation(urls), 'pages_per_assessment');
    expect(body.detail).toContain('30000 pages');
  });

  test('a file of more values than twenty per result it may hold: refused before it is parsed', async () => {
    const zeros = `[${'0,'.repeat(20 * RESULTS_PER_IMPORT)}0]`;
    const doc = JSON.stringify(evaluation([page(1)], [])).replace(
      '"auditSample":[]',
      `"auditSample":${zeros}`,
    );
    await refused(doc, 'json_values_per_import');
  });

  test('a page URL of 2001 characters is refused (422), one of 2000 imported', async () => {
    const url = (n: number) => `https://shop.example/${'a'.repeat(n - 'https://shop.example/'.length)}`;
    const body = await refused(evaluation([url(2001)]), undefined);
    expect(body.errors?.[0].detail).toContain('longer than 2000 characters');
    const ok = await send(evaluation([url(2000)]));
    expect([ok.status, ok.body.sample.pages[0].url.length]).toEqual([201, 2000]);
    // An Accessibility Insights file's page too: refused, not stored cut short.
    const insights = (u: string) => ({
      version: 1,
      assessmentData: { assessments: {}, persistedTabInfo: { url: u } },
    });
    await refused(insights(url(2001)), undefined);
    expect((await send(insights(url(2000)))).status).toBe(201);
  });

  test('more results than an assessment can hold: refused with results_per_import, flat or as parts', async () => {
    const many = (n: number) => Array.from({ length: n }, () => passed('_:page_1'));
    await refused(evaluation([page(1)], many(RESULTS_PER_IMPORT + 1)), 'results_per_import');
    await refused(
      evaluation([page(1)], [{ ...passed('_:website'), hasPart: many(RESULTS_PER_IMPORT) }]),
      'results_per_import',
    );
    const at = await send(evaluation([page(1)], many(RESULTS_PER_IMPORT)));
    expect([at.status, at.body.results]).toEqual([201, [expect.objectContaining({ criterion: '1.1.1' })]]);
    // The largest file the limits let in is read as JSON-LD, all of it: seconds, not milliseconds.
  }, 180_000);
});
