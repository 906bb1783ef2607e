import type {
  Assessment,
  AssessmentCriterion,
  AssessmentDetail,
  AssessmentResult,
  Problem,
  VpatReport,
} from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { PAGES, SITE, seedScan } from './seed.js';

describe.each(dbKinds)('assessment results, the report and EARL (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });
  let id = '';
  const sample = [PAGES[0], PAGES[1], PAGES[2]];
  const put = (criterion: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    h.request<AssessmentResult>('PUT', `/api/v1/assessments/${id}/results/${criterion}`, {
      key: h.key,
      body: { notes: '', tester: 'Ann Tester', ...body },
      headers,
    });

  beforeAll(async () => {
    await seedScan(h, h.key);
    const a = await h.request<Assessment>('POST', '/api/v1/assessments', {
      key: h.key,
      body: {
        siteId: SITE,
        title: 'Audit',
        standard: { wcag: '2.2', level: 'AA' },
        sample: { pages: sample },
      },
    });
    id = a.body.id;
  });

  test('two testers writing the same result with the same ETag: one 200, one 412 with the current result', async () => {
    const first = await put('3.1.1', { page: null, outcome: 'cantTell' });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toBe(first.body.etag);
    const [a, b] = await Promise.all([
      put('3.1.1', { page: null, outcome: 'passed', tester: 'Ann' }, { 'if-match': etag }),
      put('3.1.1', { page: null, outcome: 'failed', tester: 'Bob' }, { 'if-match': etag }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 412]);
    const winner = a.status === 200 ? a : b;
    const loser = (a.status === 412 ? a : b) as unknown as { body: Problem & { current: AssessmentResult } };
    expect(loser.body.current).toEqual(winner.body);
    const ws = await h.request<AssessmentCriterion>('GET', `/api/v1/assessments/${id}/criteria/3.1.1`, {
      key: h.key,
    });
    expect(ws.body.history.map((c) => [c.before?.outcome ?? null, c.after.outcome])).toEqual([
      [null, 'cantTell'],
      ['cantTell', winner.body.outcome],
    ]);
    expect(ws.body.procedure.check).toMatch(/language/);
  });

  test('twenty writes of one result at once without If-Match: each is 200, the last writer wins, every write is in the history', async () => {
    const outcomes = ['passed', 'failed', 'cantTell', 'inapplicable'] as const;
    const writes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        put('1.3.1', { page: null, outcome: outcomes[i % 4], tester: `Tester ${i}` }),
      ),
    );
    expect(writes.map((w) => w.status)).toEqual(Array(20).fill(200));
    expect(new Set(writes.map((w) => w.body.etag)).size).toBe(20);
    const ws = await h.request<AssessmentCriterion>('GET', `/api/v1/assessments/${id}/criteria/1.3.1`, {
      key: h.key,
    });
    expect(ws.body.history).toHaveLength(20);
    const last = writes.find((w) => w.body.etag === '"r20"')!;
    expect(ws.body.results).toEqual([last.body]);
    // Each write read the one before it: the history is one chain.
    for (const [i, c] of ws.body.history.entries()) {
      expect(c.before?.tester ?? null).toBe(i === 0 ? null : ws.body.history[i - 1].after.tester);
    }
  });

  test('refusals: a page outside the sample, a criterion the assessment does not have, a bad outcome', async () => {
    const before = await h.db('assessment_result_changes').count({ n: '*' }).first();
    expect((await put('1.1.1', { page: PAGES[5], outcome: 'passed' })).status).toBe(422);
    expect((await put('4.1.1', { page: null, outcome: 'passed' })).status).toBe(404);
    expect((await put('1.2.6', { page: null, outcome: 'passed' })).status).toBe(404);
    expect((await put('1.1.1', { page: null, outcome: 'pass' })).status).toBe(422);
    expect(await h.db('assessment_result_changes').count({ n: '*' }).first()).toEqual(before);
  });

  test('the needs-review results of the sampled pages are review items of their criterion', async () => {
    const ws = await h.request<AssessmentCriterion>('GET', `/api/v1/assessments/${id}/criteria/1.4.3`, {
      key: h.key,
    });
    expect(ws.body.review_items).toEqual([
      expect.objectContaining({ page: PAGES[1], rule: 'color-contrast', selector: '.promo' }),
    ]);
    expect(ws.body.automated).toEqual(
      expect.arrayContaining([{ page: PAGES[0], rule: 'color-contrast', kind: 'violation', issues: 1 }]),
    );
  });

  test('the report follows the assessment: human-tested supports, the proportion rule, contradictions flagged', async () => {
    for (const page of sample) expect((await put('2.4.2', { page, outcome: 'passed' })).status).toBe(200);
    expect((await put('1.4.3', { page: null, outcome: 'passed' })).status).toBe(200);
    expect((await put('1.1.1', { page: null, outcome: 'passed' })).status).toBe(200);
    expect((await put('1.1.1', { page: PAGES[2], outcome: 'failed', notes: 'logo has no alt' })).status).toBe(
      200,
    );
    expect((await put('1.2.2', { page: null, outcome: 'inapplicable', tester: 'Cy' })).status).toBe(200);
    // The product's public address is the site's, not the host the scan ran against.
    const site = await h.request('PATCH', `/api/v1/sites/${SITE}`, {
      key: h.key,
      body: { url: 'https://www.acme-shop.example/' },
    });
    expect(site.status).toBe(200);
    const res = await h.request<VpatReport>('POST', '/api/v1/vpat/generate', {
      key: h.key,
      body: { siteId: SITE, product: { name: 'Shop', version: '1' } },
    });
    expect(res.status).toBe(201);
    const row = (c: string) => res.body.criteria.find((r) => r.id === c);
    expect(row('2.4.2')).toMatchObject({
      conformance: 'supports',
      basis: 'human-tested',
      needs_review: false,
    });
    expect(row('2.4.2')?.remarks).toMatch(/Ann Tester/);
    expect(res.body.evaluation_methods).toContain('pages of https://www.acme-shop.example/ (');
    expect(res.body.evaluation_methods).not.toContain('https://shop.example');
    expect(res.body.evaluation_methods).toContain('People tested a sample of 3 pages (/, /cart, /checkout)');
    expect(row('1.1.1')).toMatchObject({ conformance: 'partially-supports', basis: 'human-tested' });
    expect(row('1.2.2')).toMatchObject({ conformance: 'not-applicable', basis: 'human-tested' });
    expect(row('1.4.3')).toMatchObject({ basis: 'violations', needs_review: true });
    expect(row('1.4.3')?.remarks).toMatch(/^Contradiction: the assessment says Passed/);
    // A report for a customer says what the product is: without a description it is not published.
    const pub = await h.request<Problem>('POST', `/api/v1/vpat/${res.body.id}/publish`, {
      key: h.key,
      body: { publisher: 'Grace Officer' },
    });
    expect(pub.status).toBe(422);
    expect(pub.body.errors?.map((e) => e.pointer)).toContain('#/product/description');
    // The concurrency test's winner (Ann or Bob) tested too.
    expect(res.body.assessment).toMatchObject({ id, title: 'Audit', sample: ['/', '/cart', '/checkout'] });
    expect(res.body.assessment?.testers).toEqual(expect.arrayContaining(['Ann Tester', 'Cy']));
  });

  test('EARL export opens as a WCAG-EM Report Tool evaluation and imports back unchanged', async () => {
    const earl = await h.request<Record<string, unknown>>('GET', `/api/v1/assessments/${id}?format=earl`, {
      key: h.key,
    });
    expect(earl.headers.get('content-type')).toMatch(/application\/ld\+json/);
    const doc = JSON.parse(earl.text) as { '@context': Record<string, unknown>; auditSample: unknown[] };
    expect(doc['@context'].wcagem).toBe('http://www.w3.org/TR/WCAG-EM/#');
    expect(doc.auditSample).toHaveLength(55);
    const imported = await h.request<AssessmentDetail>('POST', `/api/v1/assessments/import?siteId=${SITE}`, {
      key: h.key,
      raw: earl.text,
      headers: { 'content-type': 'application/ld+json' },
    });
    expect(imported.status).toBe(201);
    const original = await h.request<AssessmentDetail>('GET', `/api/v1/assessments/${id}`, { key: h.key });
    const strip = (d: AssessmentDetail) => ({
      level: d.standard.level,
      title: d.title,
      sample: d.sample.pages,
      results: d.results.map((r) => [r.criterion, r.page, r.outcome, r.notes, r.tester]),
    });
    expect(strip(imported.body)).toEqual(strip(original.body));
    expect(imported.body.origin).toBe('wcag-em-report-tool');
  });

  test('import refusals: 400 malformed, 422 unknown format or criterion with pointers, 413 too large; nothing stored', async () => {
    const before = await h.db('assessments').count({ n: '*' }).first();
    const send = (raw: string) =>
      h.request<Problem>('POST', `/api/v1/assessments/import?siteId=${SITE}`, {
        key: h.key,
        raw,
        headers: { 'content-type': 'application/json' },
      });
    expect((await send('{"@context": ')).status).toBe(400);
    const unknown = await send('{"hello": "world"}');
    expect([unknown.status, unknown.body.errors?.[0].pointer]).toEqual([422, '#']);
    const bad = await send(
      JSON.stringify({
        '@context': {},
        auditSample: [
          { test: 'WCAG21:no-such-criterion', result: { outcome: 'earl:passed' }, subject: '_:w' },
        ],
      }),
    );
    expect([bad.status, bad.body.errors?.[0].pointer]).toEqual([422, '#/auditSample/0/test']);
    const big = await send(
      JSON.stringify({ '@context': {}, auditSample: [], pad: 'x'.repeat(26 * 1024 * 1024) }),
    );
    expect(big.status).toBe(413);
    expect(await h.db('assessments').count({ n: '*' }).first()).toEqual(before);
  });
});
