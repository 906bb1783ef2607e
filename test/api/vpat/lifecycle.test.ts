import type { Assessment, Problem, VpatReport } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { eventPayloads } from '../../helpers/outbox.js';
import { PAGES, SITE, seedScan } from '../assessments/seed.js';

// A report that follows its evidence: results people record after a version was made, and newer scans of
// the base branch, mark it behind; the next version is made from them with every decision kept; publishing
// while results are missing is refused by name unless the publisher chooses to publish as it is.

const product = {
  name: 'Shop',
  version: '2026.12',
  description: 'The web shop: catalogue, cart and checkout.',
};

describe.each(dbKinds)('a report behind its evidence (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });
  let assessment = '';
  const sample = [PAGES[0], PAGES[1], PAGES[2]];
  const result = (criterion: string, page: string | null, outcome: string, tester = 'Ann Tester') =>
    h.request('PUT', `/api/v1/assessments/${assessment}/results/${criterion}`, {
      key: h.key,
      body: { page, outcome, notes: `${criterion} checked`, tester },
    });
  const get = (id: string) => h.request<VpatReport>('GET', `/api/v1/vpat/${id}`, { key: h.key });
  const reportCount = async () => Number((await h.db('vpat_reports').count({ n: '*' }).first())?.n);

  /** Version 2 of a new report: every row a person still had to answer, answered (less than the evidence). */
  async function decidedReport(body: Record<string, unknown> = {}): Promise<VpatReport> {
    const gen = await h.request<VpatReport>('POST', '/api/v1/vpat/generate', {
      key: h.key,
      body: { siteId: SITE, product, ...body },
    });
    expect(gen.status).toBe(201);
    const waiting = gen.body.criteria.filter((c) => c.needs_review);
    if (waiting.length === 0) return gen.body;
    const review = await h.request<VpatReport>('POST', `/api/v1/vpat/${gen.body.id}/review`, {
      key: h.key,
      body: {
        author: 'Grace Officer',
        decisions: waiting.map((c) => ({
          criterion: c.id,
          conformance: 'does-not-support',
          remarks: 'Not checked on every page yet.',
        })),
      },
    });
    expect([review.status, review.body.summary.undecided]).toEqual([201, 0]);
    return review.body;
  }

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
    assessment = a.body.id;
    expect((await result('2.4.2', null, 'passed')).status).toBe(200);
  });

  test('marked behind by new results and a newer scan; publishing is refused naming them; the next version keeps every decision and publishes', async () => {
    const r2 = await decidedReport();
    expect(r2.assessment).toMatchObject({ id: assessment });
    expect((await get(r2.id)).body.behind).toEqual({
      results: 0,
      scans: 0,
      assessment_id: assessment,
      latest_scan_id: null,
      summary: 'up to date',
    });

    // Seven results (one written twice counts once) and a newer scan of the base branch.
    for (const [criterion, page, outcome] of [
      ['1.1.1', null, 'passed'],
      ['1.3.1', sample[0], 'failed'],
      ['1.3.1', sample[1], 'passed'],
      ['2.1.1', null, 'passed'],
      ['2.4.4', null, 'inapplicable'],
      ['3.1.1', null, 'passed'],
      ['3.1.1', null, 'failed'],
      ['4.1.2', sample[2], 'cantTell'],
    ] as const) {
      expect((await result(criterion, page, outcome)).status).toBe(200);
    }
    const newScan = await seedScan(h, h.key);
    const behind = (await get(r2.id)).body.behind;
    expect(behind).toEqual({
      results: 7,
      scans: 1,
      assessment_id: assessment,
      latest_scan_id: newScan,
      summary: '7 new results, 1 newer scan',
    });

    const before = await reportCount();
    const refused = await h.request<Problem & { behind: unknown }>('POST', `/api/v1/vpat/${r2.id}/publish`, {
      key: h.key,
      body: { publisher: 'Grace Officer' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/^The report is behind its assessment: 7 new results, 1 newer scan/);
    expect(refused.body.behind).toEqual(behind);
    expect(refused.body.errors?.map((e) => e.detail)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^1\.1\.1 on the whole sample: passed, recorded by Ann Tester on \d{4}-\d\d-\d\d$/,
        ),
        expect.stringMatching(/^1\.3\.1 on \/: failed, recorded by Ann Tester on /),
        expect.stringMatching(/^1\.3\.1 on \/cart: passed, /),
        expect.stringMatching(/^3\.1\.1 on the whole sample: failed, /),
        expect.stringMatching(/^4\.1\.2 on \/checkout: cantTell, /),
      ]) as string[],
    );
    expect(refused.body.errors).toHaveLength(7);
    expect(refused.body.errors?.every((e) => e.pointer === '#/publish_behind')).toBe(true);
    expect(await reportCount()).toBe(before);

    // The next version: the newest scan, the results as they are now, every person's decision kept.
    const next = await h.request<VpatReport>('POST', `/api/v1/vpat/${r2.id}/refresh`, { key: h.key });
    expect(next.status).toBe(201);
    expect(next.headers.get('location')).toBe(`/api/v1/vpat/${next.body.id}`);
    expect(next.body).toMatchObject({ version: 3, previous_id: r2.id, scan_id: newScan, status: 'draft' });
    const kept = (r: VpatReport) =>
      r.overrides.map((o) => [o.criterion, o.conformance, o.remarks, o.author, o.created_at]).sort();
    expect(kept(next.body)).toEqual(kept(r2));
    expect(next.body.evaluation_methods).toContain(`scan ${newScan}`);
    expect((await get(next.body.id)).body.behind).toMatchObject({ results: 0, scans: 0 });
    const events = await eventPayloads(h.db, 'vpat.refreshed', 'acme');
    expect(events.map((e) => e.data.id)).toContain(next.body.id);
    // The version it followed has a newer one: versions form one line.
    expect((await h.request('POST', `/api/v1/vpat/${r2.id}/refresh`, { key: h.key })).status).toBe(409);

    const final = await h.request<VpatReport>('POST', `/api/v1/vpat/${next.body.id}/publish`, {
      key: h.key,
      body: { publisher: 'Grace Officer' },
    });
    expect(final.status).toBe(201);
    expect(final.body.published).toEqual({ by: 'Grace Officer', at: expect.any(String) as string });
    const md = await h.request('GET', `/api/v1/vpat/${final.body.id}?format=md`, { key: h.key });
    expect(md.text).toContain('Final report, published by Grace Officer on');
    expect(md.text).not.toContain('as it was');
    // A final version is not refreshed: a new report follows newer evidence.
    expect((await h.request('POST', `/api/v1/vpat/${final.body.id}/refresh`, { key: h.key })).status).toBe(
      409,
    );
  });

  test('publishing as it is records what was left out, and every format says so', async () => {
    const report = await decidedReport();
    expect((await result('2.4.7', sample[0], 'failed', 'Bob Tester')).status).toBe(200);
    const refused = await h.request<Problem>('POST', `/api/v1/vpat/${report.id}/publish`, {
      key: h.key,
      body: { publisher: 'Grace Officer' },
    });
    expect([
      refused.status,
      refused.body.errors?.map((e) => e.detail.replace(/ on \d{4}-\d\d-\d\d$/, '')),
    ]).toEqual([409, ['2.4.7 on /: failed, recorded by Bob Tester']]);
    const final = await h.request<VpatReport>('POST', `/api/v1/vpat/${report.id}/publish`, {
      key: h.key,
      body: { publisher: 'Grace Officer', publish_behind: true },
    });
    expect(final.status).toBe(201);
    expect(final.body.published).toMatchObject({ by: 'Grace Officer', behind: { results: 1 } });
    for (const format of ['md', 'html']) {
      const doc = await h.request('GET', `/api/v1/vpat/${final.body.id}?format=${format}`, { key: h.key });
      expect([format, doc.text.replace(/\s+/g, ' ')]).toEqual([
        format,
        expect.stringContaining(
          'as it was, without the evidence recorded after it was made (1 new result',
        ) as string,
      ]);
    }
  });

  test('an API call names the person: no reviewer or publisher is taken from the key', async () => {
    const gen = await h.request<VpatReport>('POST', '/api/v1/vpat/generate', {
      key: h.key,
      body: { siteId: SITE, product },
    });
    const review = await h.request<Problem>('POST', `/api/v1/vpat/${gen.body.id}/review`, {
      key: h.key,
      body: { decisions: [{ criterion: '1.3.3', conformance: 'supports', remarks: 'Checked.' }] },
    });
    expect([review.status, review.body.errors?.map((e) => e.pointer)]).toEqual([422, ['#/author']]);
    const publish = await h.request<Problem>('POST', `/api/v1/vpat/${gen.body.id}/publish`, {
      key: h.key,
      body: {},
    });
    expect([publish.status, publish.body.errors?.map((e) => e.pointer)]).toEqual([422, ['#/publisher']]);
  });
});
