import { issueFingerprint } from '../../../core/matching/fingerprint.js';
import type {
  Assessment,
  CreatedScan,
  DeployEvent,
  OpenScan,
  Problem,
  ScanDetail,
  ScanList,
  ScanPartAccepted,
  VpatReport,
} from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';

/**
 * One page, one address (core/url-normalisation.ts) where the service keys pages: `/` and `/index.html` of one
 * scan are one page (the first is stored), so its page list, an assessment's sample and a report count it
 * once; and a baseline stored when `/index.html` was a page of its own still pairs its issues.
 */

const img = (selector: string) => ({
  rule: 'image-alt',
  impact: 'critical',
  selector,
  html: `<img id="${selector.slice(1)}" src="/hero.png">`,
  wcag: ['1.1.1'],
});
const label = (selector: string) => ({
  rule: 'label',
  impact: 'serious',
  selector,
  wcag: ['1.3.1', '4.1.2'],
});

describe.each(dbKinds)('one page, one address (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });
  const post = (body: Record<string, unknown>) =>
    h.request<CreatedScan>('POST', '/api/v1/scans', { key: h.key, body });
  const read = async (id: string) =>
    (await h.request<ScanDetail>('GET', `/api/v1/scans/${id}`, { key: h.key })).body;
  const part = (id: string, body: Record<string, unknown>) =>
    h.request<ScanPartAccepted>('POST', `/api/v1/scans/${id}/pages`, { key: h.key, body });

  test('a scan listing / and /index.html stores one page, the first, with its issues', async () => {
    const res = await post({
      siteId: 'home',
      url: 'https://site.test/',
      pages: [
        { url: '/', title: 'Home', issues: [img('#hero')] },
        { url: 'https://site.test/index.html', title: 'Home again', issues: [img('#hero'), label('#q')] },
        { url: '/docs/', title: 'Docs', issues: [label('#search')] },
        { url: '/docs/index.html#intro', title: 'Docs again', issues: [] },
        { url: 'https://site.test:443/docs', title: 'Docs once more', issues: [img('#diagram')] },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.summary).toMatchObject({
      pages: 2,
      issues: 2,
      by_impact: { critical: 1, serious: 1, moderate: 0, minor: 0, unknown: 0 },
    });
    const scan = await read(res.body.id);
    expect(scan.pages.map((p) => [p.index, p.url, p.normalized_url, p.title, p.issue_count])).toEqual([
      [0, '/', 'https://site.test/', 'Home', 1],
      [1, '/docs/', 'https://site.test/docs', 'Docs', 1],
    ]);
    expect(scan.issues.map((i) => [i.page_index, i.rule, i.selector])).toEqual([
      [0, 'image-alt', '#hero'],
      [1, 'label', '#search'],
    ]);
  });

  test('in parts and shards the page stored first wins; a shard sent again frees its own addresses', async () => {
    const opened = await h.request<OpenScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        siteId: 'parts',
        url: 'https://site.test/',
        complete: false,
        pages: [{ url: '/docs', issues: [] }],
      },
    });
    expect(opened.status).toBe(201);
    const p = await part(opened.body.id, {
      pages: [
        { url: '/docs/index.html', issues: [img('#a'), img('#b')] },
        { url: '/new', issues: [label('#c')] },
      ],
    });
    expect(p.status).toBe(200);
    expect(p.body.part).toEqual({ first_page_index: 1, pages: 1, issues: 1, replayed: false });
    await h.request('POST', `/api/v1/scans/${opened.body.id}/complete`, { key: h.key });
    const whole = await read(opened.body.id);
    expect(whole.pages.map((x) => x.url)).toEqual(['/docs', '/new']);
    expect(whole.summary.issues).toBe(1);

    const group = await h.request<OpenScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        siteId: 'shards',
        url: 'https://site.test/',
        complete: false,
        scan_group: 'run-1',
        shards: 2,
        pages: [],
      },
    });
    const shard = (n: number, pages: unknown[]) =>
      part(group.body.id, { shard: n, shard_part: 1, shard_parts: 1, pages });
    expect((await shard(1, [{ url: '/', issues: [img('#hero')] }])).body.part.pages).toBe(1);
    // A re-run of shard 1 first takes its own pages out: the address is its again.
    expect((await shard(1, [{ url: '/index.html', issues: [img('#hero')] }])).body.part.pages).toBe(1);
    // Shard 2 names the same page: the one shard 1 stored stays, and the scan completes with two pages.
    const last = await shard(2, [
      { url: '/', issues: [label('#other')] },
      { url: '/b', issues: [] },
    ]);
    expect(last.body.part.pages).toBe(1);
    expect(last.body.status).toBe('complete');
    const sharded = await read(group.body.id);
    expect(sharded.pages.map((x) => x.url).sort()).toEqual(['/b', '/index.html']);
    expect(sharded.issues.map((i) => i.selector)).toEqual(['#hero']);
  });

  test('an assessment sample and a report count the page once', async () => {
    const res = await post({
      siteId: 'count',
      url: 'https://count.test/',
      branch: 'main',
      rules_run: ['image-alt', 'label'],
      pages: [
        { url: '/', issues: [img('#hero')] },
        { url: '/index.html', issues: [img('#hero')] },
        { url: '/cart', issues: [] },
      ],
    });
    expect(res.body.summary.pages).toBe(2);
    const report = await h.request<VpatReport>('POST', '/api/v1/vpat/generate', {
      key: h.key,
      body: { siteId: 'count', product: { name: 'Count', version: '1', description: 'The shop.' } },
    });
    expect(report.status).toBe(201);
    const alt = report.body.criteria.find((c) => c.id === '1.1.1')!;
    expect(alt.evidence).toMatchObject({ pages_affected: 1, pages_total: 2, issues: 1 });
    expect(alt.remarks).toContain('1 issue on 1 of 2 pages');

    const assess = (random: number) =>
      h.request<Assessment | Problem>('POST', '/api/v1/assessments', {
        key: h.key,
        body: {
          siteId: 'count',
          title: 'Audit',
          standard: { wcag: '2.2', level: 'AA' },
          sample: { pages: ['/cart'], random, seed: 7 },
        },
      });
    const tooMany = await assess(2);
    expect(tooMany.status).toBe(422);
    expect((tooMany.body as Problem).errors).toEqual([
      { pointer: '#/sample/random', detail: 'the scan has only 1 other pages to draw from' },
    ]);
    const sample = await assess(1);
    expect(sample.status).toBe(201);
    expect((sample.body as Assessment).sample.pages).toEqual([
      { url: '/cart', source: 'chosen' },
      { url: '/', source: 'random' },
    ]);
  });

  test('a baseline stored when /index.html was a page of its own: its issues are existing, paired on the one page', async () => {
    const base = await post({
      siteId: 'before',
      url: 'https://site.test/',
      sha: 'a'.repeat(40),
      branch: 'main',
      pages: [{ url: '/index.html', issues: [img('#hero'), label('#q')] }],
    });
    // What the rule before wrote: the page's own address, and fingerprints keyed by it.
    await h
      .db('scan_pages')
      .where({ scan_id: base.body.id })
      .update({ normalized_url: 'https://site.test/index.html' });
    const rows = await h
      .db('scan_issues')
      .where({ scan_id: base.body.id })
      .select<Array<{ id: number; rule: string; selector: string; fingerprint: string }>>(
        'id',
        'rule',
        'selector',
        'fingerprint',
      );
    const old = new Map<string, string>();
    for (const r of rows) {
      const fingerprint = issueFingerprint({ rule: r.rule, pageKey: '/index.html', selector: r.selector });
      old.set(r.fingerprint, fingerprint);
      await h.db('scan_issues').where({ id: r.id }).update({ fingerprint });
    }
    if (await h.db.schema.hasTable('scan_gate_columns')) {
      const stored = await h
        .db('scan_gate_columns')
        .where({ scan_id: base.body.id })
        .first<{ fingerprints: string }>('fingerprints');
      const fingerprints = stored.fingerprints
        .split(',')
        .map((f) => old.get(f) ?? f)
        .join(',');
      await h.db('scan_gate_columns').where({ scan_id: base.body.id }).update({ fingerprints });
    }

    await post({
      siteId: 'before',
      url: 'https://site.test/',
      sha: 'b'.repeat(40),
      branch: 'feature',
      pages: [{ url: '/', issues: [img('#hero'), label('#q')] }],
    });
    const list = await h.request<ScanList>('GET', '/api/v1/scans?siteId=before&branch=feature', {
      key: h.key,
    });
    const head = await read(list.body.data[0].id);
    // The fingerprints changed with the page's key; the gate pairs the issues on the page both name.
    expect(head.issues.map((i) => i.fingerprint).sort()).not.toEqual([...old.values()].sort());
    const e = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      body: { siteId: 'before', sha: 'b'.repeat(40), fail_on_serious: true },
    });
    expect(e.body.passed).toBe(true);
    expect(e.body.counts).toMatchObject({ new: 0, existing: 2, fixed: 0 });
    expect(e.body.similar_issues.map((i) => [i.rule, i.match, i.baseline_issue?.page_url])).toEqual([
      ['image-alt', 'similar', '/index.html'],
      ['label', 'similar', '/index.html'],
    ]);
  });
});
