import fs from 'node:fs';
import type { Assessment, AssessmentDetail, AssessmentList, Problem } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { PAGES, SITE, seedScan } from './seed.js';

const create = (body: Record<string, unknown>) => ({
  siteId: SITE,
  title: 'Q4 audit',
  standard: { wcag: '2.2', level: 'AA' },
  sample: { pages: [PAGES[0], PAGES[1]], random: 2, seed: 42 },
  ...body,
});

describe.each(dbKinds)('assessments (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });
  let scanId = '';
  const count = async () => Number((await h.db('assessments').count({ n: '*' }).first())?.n);

  beforeAll(async () => {
    scanId = await seedScan(h, h.key);
  });

  test('the sample is the chosen pages plus n distinct others, drawn again the same with the recorded seed', async () => {
    const a = await h.request<Assessment>('POST', '/api/v1/assessments', { key: h.key, body: create({}) });
    expect(a.status).toBe(201);
    expect(a.headers.get('location')).toBe(`/api/v1/assessments/${a.body.id}`);
    expect(a.body.scan_id).toBe(scanId);
    const urls = a.body.sample.pages.map((p) => p.url);
    expect(urls.slice(0, 2)).toEqual([PAGES[0], PAGES[1]]);
    expect(a.body.sample.pages.map((p) => p.source)).toEqual(['chosen', 'chosen', 'random', 'random']);
    expect(new Set(urls).size).toBe(4);
    for (const u of urls.slice(2)) expect(PAGES.slice(2)).toContain(u);
    expect(a.body.sample.seed).toBe(42);
    const again = await h.request<Assessment>('POST', '/api/v1/assessments', {
      key: h.key,
      body: create({}),
    });
    expect(again.body.sample.pages).toEqual(a.body.sample.pages);
    // Without a seed one is chosen and recorded; with it the same draw comes back.
    const fresh = await h.request<Assessment>('POST', '/api/v1/assessments', {
      key: h.key,
      body: create({ sample: { pages: [], random: 3 } }),
    });
    expect(typeof fresh.body.sample.seed).toBe('number');
    const replay = await h.request<Assessment>('POST', '/api/v1/assessments', {
      key: h.key,
      body: create({ sample: { pages: [], random: 3, seed: fresh.body.sample.seed } }),
    });
    expect(replay.body.sample.pages).toEqual(fresh.body.sample.pages);
    expect(a.body.progress).toEqual({ criteria: 55, decided: 0, passed: 0, failed: 0, inapplicable: 0 });
  });

  test('refusals name the field and store nothing', async () => {
    const before = await count();
    const cases: Array<[Record<string, unknown>, string, number]> = [
      [{ sample: { pages: ['https://elsewhere.example/'], random: 0 } }, '#/sample/pages/0', 422],
      [{ sample: { pages: [PAGES[0]], random: 6 } }, '#/sample/random', 422],
      [{ standard: { wcag: '2.2', level: 'AAA' } }, '#/standard/level', 422],
      [{ title: '' }, '#/title', 422],
    ];
    for (const [body, pointer, status] of cases) {
      const res = await h.request<Problem>('POST', '/api/v1/assessments', { key: h.key, body: create(body) });
      expect([res.status, res.body.errors?.map((e) => e.pointer)]).toEqual([status, [pointer]]);
    }
    const missing = await h.request<Problem>('POST', '/api/v1/assessments', {
      key: h.key,
      body: create({ siteId: 'no-such-site' }),
    });
    expect(missing.status).toBe(404);
    expect(await count()).toBe(before);
  });

  test('list newest first, paginated; PATCH title and sample; DELETE', async () => {
    const made: string[] = [];
    for (const title of ['first', 'second', 'third']) {
      const r = await h.request<Assessment>('POST', '/api/v1/assessments', {
        key: h.key,
        body: create({ title }),
      });
      made.push(r.body.id);
    }
    const page1 = await h.request<AssessmentList>('GET', `/api/v1/assessments?siteId=${SITE}&limit=2`, {
      key: h.key,
    });
    expect(page1.body.data.map((a) => a.title)).toEqual(['third', 'second']);
    const page2 = await h.request<AssessmentList>(
      'GET',
      `/api/v1/assessments?siteId=${SITE}&limit=2&cursor=${page1.body.next_cursor ?? ''}`,
      { key: h.key },
    );
    expect(page2.body.data[0].title).toBe('first');
    const patched = await h.request<AssessmentDetail>('PATCH', `/api/v1/assessments/${made[0]}`, {
      key: h.key,
      body: { title: 'renamed', sample: { pages: [PAGES[5]], random: 0 } },
    });
    expect(patched.status).toBe(200);
    expect([patched.body.title, patched.body.sample.pages]).toEqual([
      'renamed',
      [{ url: PAGES[5], source: 'chosen' }],
    ]);
    expect((await h.request('DELETE', `/api/v1/assessments/${made[0]}`, { key: h.key })).status).toBe(204);
    expect((await h.request('GET', `/api/v1/assessments/${made[0]}`, { key: h.key })).status).toBe(404);
  });

  test('scopes: manage to change, read to see; another org sees nothing', async () => {
    const a = await h.request<Assessment>('POST', '/api/v1/assessments', { key: h.key, body: create({}) });
    const reader = await h.createKey({ org: 'acme', scopes: ['read'] });
    const ingester = await h.createKey({ org: 'acme', scopes: ['ingest'] });
    const stranger = await h.createKey({ org: 'globex' });
    const path = `/api/v1/assessments/${a.body.id}`;
    const put = { page: null, outcome: 'passed', notes: '', tester: 'Ann' };
    expect((await h.request('GET', path, { key: reader })).status).toBe(200);
    expect((await h.request('POST', '/api/v1/assessments', { key: reader, body: create({}) })).status).toBe(
      403,
    );
    expect((await h.request('PATCH', path, { key: reader, body: { title: 'x' } })).status).toBe(403);
    expect((await h.request('DELETE', path, { key: reader })).status).toBe(403);
    expect((await h.request('PUT', `${path}/results/2.4.2`, { key: reader, body: put })).status).toBe(403);
    expect((await h.request('GET', path, { key: ingester })).status).toBe(403);
    for (const [method, p, body] of [
      ['GET', path, undefined],
      ['GET', `${path}?format=earl`, undefined],
      ['GET', `${path}/criteria/2.4.2`, undefined],
      ['PATCH', path, { title: 'x' }],
      ['PUT', `${path}/results/2.4.2`, put],
      ['DELETE', path, undefined],
    ] as const) {
      expect([method, p, (await h.request(method, p, { key: stranger, body })).status]).toEqual([
        method,
        p,
        404,
      ]);
    }
    const list = await h.request<AssessmentList>('GET', '/api/v1/assessments', { key: stranger });
    expect(list.body.data).toEqual([]);
    const imported = await h.request('POST', `/api/v1/assessments/import?siteId=${SITE}`, {
      key: stranger,
      body: { '@context': {}, auditSample: [] },
    });
    expect(imported.status).toBe(404);
    expect((await h.request('GET', path, { key: h.key })).status).toBe(200);
  });

  test('Accessibility Insights files, current and earlier, import as assessments of their page, every result mapped', async () => {
    const post = (name: string) =>
      h.request<AssessmentDetail>('POST', `/api/v1/assessments/import?siteId=${SITE}`, {
        key: h.key,
        raw: fs.readFileSync(`test/fixtures/assessments/${name}.a11ywebassessment`),
        headers: { 'content-type': 'application/json' },
      });
    const res = await post('insights-current');
    expect(res.status).toBe(201);
    expect(res.body.origin).toBe('accessibility-insights');
    const cart = 'https://shop.example/cart';
    expect(res.body.sample.pages.map((p) => p.url)).toEqual([cart]);
    // The API lists results by criterion id as text (2.4.11 before 2.4.3); here in WCAG's order.
    const byNumber = (a: { criterion: string }, b: { criterion: string }) =>
      a.criterion.localeCompare(b.criterion, 'en', { numeric: true });
    expect(res.body.results.sort(byNumber).map((r) => [r.criterion, r.page, r.outcome])).toEqual(
      [
        ['1.1.1', 'passed'],
        ['1.2.3', 'passed'],
        ['1.2.5', 'passed'],
        ['1.3.1', 'failed'],
        ['2.1.1', 'cantTell'],
        ['2.1.2', 'passed'],
        ['2.4.1', 'passed'],
        ['2.4.3', 'failed'],
        ['2.4.4', 'failed'],
        ['2.4.6', 'failed'],
        ['2.4.7', 'passed'],
        ['2.4.11', 'passed'],
        ['2.5.8', 'passed'],
        ['3.1.1', 'passed'],
        ['3.2.1', 'failed'],
        ['3.3.7', 'passed'],
        ['4.1.2', 'failed'],
      ].map(([c, o]) => [c, cart, o]),
    );
    expect(res.body.progress).toMatchObject({ decided: 16, passed: 10, failed: 6 });
    expect(res.body.notes).toEqual([]);

    const old = await post('insights-earlier');
    expect(old.status).toBe(201);
    expect(old.body.results.sort(byNumber).map((r) => `${r.criterion} ${r.outcome}`)).toEqual([
      '1.3.1 failed',
      '1.3.5 passed',
      '1.4.1 cantTell',
      '1.4.3 failed',
      '1.4.4 passed',
      '2.4.4 passed',
      '2.5.3 failed',
      '3.1.1 passed',
      '3.3.1 passed',
      '3.3.2 passed',
      '4.1.2 passed',
      '4.1.3 failed',
    ]);
    expect(old.body.results.every((r) => r.page === 'https://shop.example/checkout')).toBe(true);
    expect(old.body.notes).toEqual(['4.1.1 Parsing is obsolete in WCAG 2.2 and counts for nothing']);
  });

  test('deleting the site deletes its assessments with their results and history', async () => {
    const a = await h.request<Assessment>('POST', '/api/v1/assessments', { key: h.key, body: create({}) });
    const put = await h.request('PUT', `/api/v1/assessments/${a.body.id}/results/2.4.2`, {
      key: h.key,
      body: { page: null, outcome: 'passed', notes: '', tester: 'Ann' },
    });
    expect(put.status).toBe(200);
    expect((await h.request('DELETE', `/api/v1/sites/${SITE}`, { key: h.key })).status).toBe(204);
    expect((await h.request('GET', `/api/v1/assessments/${a.body.id}`, { key: h.key })).status).toBe(404);
    for (const table of ['assessments', 'assessment_results', 'assessment_result_changes']) {
      expect([table, Number((await h.db(table).count({ n: '*' }).first())?.n)]).toEqual([table, 0]);
    }
  });
});
