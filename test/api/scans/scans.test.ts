import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { FINGERPRINT_VERSION } from '../../../core/matching/fingerprint.js';
import type { CreatedScan, Problem, ScanDetail, ScanList, Waiver } from '../../helpers/api-types.js';
import { dbKinds, useHarness, type Harness } from '../../helpers/harness.js';
import { eventPayloads } from '../../helpers/outbox.js';

const SHA = 'a'.repeat(40);
/** A reporter's output, sent on as it is. */
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../fixtures/${name}.json`, import.meta.url), 'utf8'));

/** The columns of the rows the tests read. */
interface SiteRow {
  org: string;
  site_id: string;
  base_branch: string | null;
}

function nativeScan(overrides: Record<string, unknown> = {}) {
  return {
    url: 'https://shop.example.com/',
    siteId: 'shop',
    sha: SHA,
    branch: 'main',
    engine: { name: 'custom-ci', version: '1.2.3' },
    run_attempt: 1,
    pages: [
      {
        url: 'https://shop.example.com/?utm_source=x#top',
        title: 'Home',
        final_url: 'https://shop.example.com/',
        http_status: 200,
        issues: [
          {
            rule: 'color-contrast',
            impact: 'serious',
            message: 'Low contrast',
            selector: '.css-1x2y3z > a',
            html: '<a class="css-1x2y3z">Buy</a>',
            wcag: ['1.4.3'],
            help_url: 'https://dequeuniversity.com/rules/axe/4.10/color-contrast',
            source: { path: 'src/Header.tsx', line: 12 },
          },
          { rule: 'image-alt', impact: 'critical', selector: 'img.hero', wcag: ['1.1.1'] },
        ],
      },
      {
        url: '/checkout',
        title: 'Checkout',
        issues: [{ rule: 'label', impact: 'critical', kind: 'incomplete', selector: '#email' }],
      },
    ],
    ...overrides,
  };
}

async function rowCounts(h: Harness) {
  const count = async (table: string) => Number((await h.db(table).count({ n: '*' }))[0].n);
  return {
    scans: await count('scans'),
    pages: await count('scan_pages'),
    issues: await count('scan_issues'),
    sites: await count('sites'),
    outbox: await count('outbox_messages'),
  };
}

describe.each(dbKinds)('scans (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });

  test('a native scan is stored and read back with pages, issues, fingerprints and wcag', async () => {
    const created = await h.request<CreatedScan>('POST', '/api/v1/scans', { key: h.key, body: nativeScan() });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(id).toMatch(/^scn_[0-9A-Za-z]{20}$/);
    expect(created.headers.get('location')).toBe(`/api/v1/scans/${id}`);
    expect(created.body).toEqual({
      id,
      siteId: 'shop',
      url: 'https://shop.example.com/',
      sha: SHA,
      branch: 'main',
      created_at: expect.any(String) as unknown,
      summary: {
        pages: 2,
        issues: 3,
        by_impact: { critical: 2, serious: 1, moderate: 0, minor: 0, unknown: 0 },
        by_kind: { violation: 2, incomplete: 1 },
      },
      warnings: [],
    });

    const got = await h.request<ScanDetail>('GET', `/api/v1/scans/${id}`, { key: h.key });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      id,
      siteId: 'shop',
      engine: { name: 'custom-ci', version: '1.2.3' },
      run_attempt: 1,
      fingerprint_version: FINGERPRINT_VERSION,
      rules_run: null,
      summary: created.body.summary,
    });
    expect(got.body.pages).toEqual([
      {
        index: 0,
        url: 'https://shop.example.com/?utm_source=x#top',
        viewport: null,
        normalized_url: 'https://shop.example.com/',
        title: 'Home',
        final_url: 'https://shop.example.com/',
        http_status: 200,
        issue_count: 2,
      },
      {
        index: 1,
        url: '/checkout',
        viewport: null,
        normalized_url: 'https://shop.example.com/checkout',
        title: 'Checkout',
        final_url: null,
        http_status: null,
        issue_count: 1,
      },
    ]);
    expect(got.body.issues).toHaveLength(3);
    expect(got.body.issues[0]).toEqual({
      page_index: 0,
      page_url: 'https://shop.example.com/?utm_source=x#top',
      rule: 'color-contrast',
      impact: 'serious',
      kind: 'violation',
      message: 'Low contrast',
      selector: '.css-1x2y3z > a',
      html: '<a class="css-1x2y3z">Buy</a>',
      wcag: ['1.4.3'],
      help_url: 'https://dequeuniversity.com/rules/axe/4.10/color-contrast',
      source: { path: 'src/Header.tsx', line: 12, column: null, method: null },
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
      waiver_id: null,
    });
    expect(got.body.waived).toBe(0);
    expect(got.body.issues[1]).toMatchObject({ rule: 'image-alt', source: null, message: null, html: null });
    expect(got.body.issues[2]).toMatchObject({ rule: 'label', kind: 'incomplete', page_url: '/checkout' });

    const site = await h.db<SiteRow>('sites').where({ org: 'acme', site_id: 'shop' }).first();
    expect(site).toMatchObject({ base_branch: 'main' });
  });

  test('the same issues in a later build give the same fingerprints; another element another one', async () => {
    const first = await h.request<CreatedScan>('POST', '/api/v1/scans', { key: h.key, body: nativeScan() });
    const second = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: nativeScan({
        sha: 'b'.repeat(40),
        pages: [
          {
            url: 'https://shop.example.com:443/?fbclid=abc',
            issues: [
              { rule: 'color-contrast', impact: 'moderate', selector: '.css-9q8w7e > a' },
              { rule: 'image-alt', impact: 'critical', selector: 'img.teaser' },
            ],
          },
        ],
      }),
    });
    expect(second.status).toBe(201);
    const issuesOf = async (id: string) =>
      (await h.request<ScanDetail>('GET', `/api/v1/scans/${id}`, { key: h.key })).body.issues;
    const a = await issuesOf(first.body.id);
    const b = await issuesOf(second.body.id);
    expect(b[0].fingerprint).toBe(a[0].fingerprint);
    expect(b[1].fingerprint).not.toBe(a[1].fingerprint);
  });

  test('scan.created is written to the outbox with the 201 body, in the same transaction', async () => {
    const created = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: nativeScan({ siteId: 'outbox-site' }),
    });
    const payloads = await eventPayloads(h.db, 'scan.created', 'acme');
    const mine = payloads.find((p) => p.data.id === created.body.id);
    expect(mine).toMatchObject({ type: 'scan.created', data: created.body });
  });

  test('siteId defaults to the host name; rules_run is stored as given', async () => {
    const body = nativeScan({ rules_run: ['image-alt', 'color-contrast', 'image-alt'] });
    delete (body as Record<string, unknown>).siteId;
    const created = await h.request<CreatedScan>('POST', '/api/v1/scans', { key: h.key, body });
    expect(created.body.siteId).toBe('shop.example.com');
    const got = await h.request<ScanDetail>('GET', `/api/v1/scans/${created.body.id}`, { key: h.key });
    expect(got.body.rules_run).toEqual(['color-contrast', 'image-alt']);
  });

  test('bad input is 422 with JSON pointers and stores nothing; unknown fields are ignored', async () => {
    const before = await rowCounts(h);
    const bad = nativeScan();
    (bad.pages[1].issues[0] as Record<string, unknown>).impact = 'catastrophic';
    (bad.pages[0] as Record<string, unknown>).http_status = 'ok';
    const res = await h.request<Problem>('POST', '/api/v1/scans', { key: h.key, body: bad });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    const pointers = res.body.errors!.map((e) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['#/pages/1/issues/0/impact', '#/pages/0/http_status']));

    for (const [body, pointer] of [
      [{ pages: [] }, '#/url'],
      [{ url: 'ftp://x.example/', pages: [] }, '#/url'],
      [
        { url: 'https://x.example/', pages: [{ url: 'https://x.example/a', issues: [{ impact: 'minor' }] }] },
        '#/pages/0/issues/0/rule',
      ],
      [
        {
          url: 'https://x.example/',
          pages: [{ url: 'https://x.example/a', issues: [], axe: { violations: [] } }],
        },
        '#/pages/0',
      ],
      [{ url: 'https://x.example/', sha: 'not-a-sha', pages: [] }, '#/sha'],
      [{ url: 'https://[::1]/', pages: [] }, '#/siteId'],
      [{ url: 'https://x.example/', pages: [{ url: 'mailto:a@b.c' }] }, '#/pages/0/url'],
      [{ url: 'https://x.example/', pages: {} }, '#/pages'],
      [{ url: 'https://x.example/', pages: [{ url: '/a', axe: [{ violations: [] }] }] }, '#/pages/0/axe'],
    ] as const) {
      const r = await h.request<Problem>('POST', '/api/v1/scans', { key: h.key, body });
      expect({ pointer, status: r.status }).toEqual({ pointer, status: 422 });
      expect(r.body.errors!.map((e) => e.pointer)).toEqual([pointer]);
    }
    expect(await rowCounts(h)).toEqual(before);

    const extra = await h.request('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        ...nativeScan(),
        reporter: 'x',
        pages: [{ url: '/', foo: 1, issues: [{ rule: 'r', bar: 2 }] }],
      },
    });
    expect(extra.status).toBe(201);
  });

  test('a page found invalid after many issues were written stores nothing', async () => {
    const before = await rowCounts(h);
    // 20 pages × 60 issues: several insert statements have run or wait when the last page is read.
    const pages = Array.from({ length: 20 }, (_, p) => ({
      url: `/late/${p}`,
      issues: Array.from({ length: 60 }, (_, i) => ({ rule: 'r', selector: `#e-${p}-${i}` })),
    }));
    (pages[19].issues[59] as Record<string, unknown>).impact = 'catastrophic';
    const res = await h.request<Problem>('POST', '/api/v1/scans', {
      key: h.key,
      body: nativeScan({ siteId: 'late-invalid', pages }),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors!.map((e) => e.pointer)).toEqual(['#/pages/19/issues/59/impact']);
    expect(await rowCounts(h)).toEqual(before);
  });

  test('warnings: no pages, error pages, the login-page trap', async () => {
    const empty = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: nativeScan({ pages: [] }),
    });
    expect(empty.status).toBe(201);
    expect(empty.body.warnings.map((w) => w.code)).toEqual(['no_pages']);
    expect(empty.body.summary).toMatchObject({ pages: 0, issues: 0 });

    const trap = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: nativeScan({
        pages: ['/a', '/b', '/c', '/d'].map((url, i) => ({
          url,
          title: 'Sign in',
          final_url: i < 3 ? 'https://shop.example.com/login?next=x' : url,
          http_status: i === 3 ? 404 : 200,
          issues: [],
        })),
      }),
    });
    expect(trap.body.warnings.map((w) => w.code)).toEqual([
      'http_error_pages',
      'shared_final_url',
      'shared_title',
    ]);
    expect(trap.body.warnings[1].count).toBe(3);
    expect(trap.body.warnings[2].count).toBe(4);
  });

  test('another org sees 404; scopes are enforced', async () => {
    const created = await h.request<CreatedScan>('POST', '/api/v1/scans', { key: h.key, body: nativeScan() });
    const other = await h.createKey({ org: 'other' });
    expect((await h.request('GET', `/api/v1/scans/${created.body.id}`, { key: other })).status).toBe(404);
    expect((await h.request('GET', `/api/v1/scans/scn_doesnotexist0000000`, { key: h.key })).status).toBe(
      404,
    );
    const list = await h.request<ScanList>('GET', '/api/v1/scans', { key: other });
    expect(list.body.data).toEqual([]);

    const readOnly = await h.createKey({ org: 'acme', scopes: ['read'] });
    const ingestOnly = await h.createKey({ org: 'acme', scopes: ['ingest'] });
    expect((await h.request('POST', '/api/v1/scans', { key: readOnly, body: nativeScan() })).status).toBe(
      403,
    );
    expect((await h.request('GET', `/api/v1/scans/${created.body.id}`, { key: ingestOnly })).status).toBe(
      403,
    );
    expect((await h.request('GET', `/api/v1/scans/${created.body.id}`, { key: readOnly })).status).toBe(200);
    expect((await h.request('POST', '/api/v1/scans', { key: ingestOnly, body: nativeScan() })).status).toBe(
      201,
    );
  });

  test('Idempotency-Key replays the first answer and stores one scan', async () => {
    const before = await rowCounts(h);
    const headers = { 'Idempotency-Key': `retry-${db}` };
    const body = nativeScan({ siteId: 'idem' });
    const first = await h.request<CreatedScan>('POST', '/api/v1/scans', { key: h.key, body, headers });
    const again = await h.request<CreatedScan>('POST', '/api/v1/scans', { key: h.key, body, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const after = await rowCounts(h);
    expect(after.scans).toBe(before.scans + 1);
  });
  test('axe and pa11y pages are imported; engine and rules_run come from axe', async () => {
    const created = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        url: 'http://fixture.test/',
        siteId: 'forms',
        sha: 'c'.repeat(40),
        pages: [
          { url: '/products?utm_source=newsletter#reviews', title: 'Products', axe: fixture('axe/defects') },
          { url: '/account', axe: fixture('axe/nested') },
          { url: '/legacy', pa11y: fixture('pa11y/htmlcs-issues') },
          { url: '/p11y-axe', pa11y: fixture('pa11y/axe-result') },
        ],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.summary).toMatchObject({ pages: 4, issues: 6 + 3 + 8 + 4 });
    const got = await h.request<ScanDetail>('GET', `/api/v1/scans/${created.body.id}`, { key: h.key });
    expect(got.body.engine).toEqual({ name: 'axe-core', version: '4.14.1' });
    expect(got.body.rules_run).toEqual(
      expect.arrayContaining(['image-alt', 'color-contrast', 'document-title']),
    );
    const issues = got.body.issues;
    expect(issues.find((i) => i.rule === 'button-name' && i.page_index === 1)!.selector).toBe(
      '#card-host >>> button',
    );
    expect(issues.find((i) => i.rule === 'WCAG2AA.Principle1.Guideline1_4.1_4_3.G18.Fail')).toMatchObject({
      impact: 'serious',
      kind: 'violation',
      wcag: ['1.4.3'],
      page_url: '/legacy',
    });
    // pa11y's axe runner drops the tags: criteria come from the installed axe-core.
    expect(issues.find((i) => i.rule === 'image-alt' && i.page_index === 3)).toMatchObject({
      impact: 'critical',
      wcag: ['1.1.1'],
    });
    expect(got.body.pages[3].title).toBe('Products');
  });

  test('list: newest first, filtered, cursor-paginated with a Link header', async () => {
    const sha = (n: number) => n.toString(16).padStart(40, 'd');
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) {
      const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
        key: h.key,
        body: nativeScan({
          siteId: 'listed',
          sha: sha(n % 2),
          branch: n < 4 ? 'feature/x' : 'main',
          pages: [],
        }),
      });
      ids.push(res.body.id);
    }
    const all: string[] = [];
    let path = '/api/v1/scans?siteId=listed&limit=2';
    for (;;) {
      const page = await h.request<ScanList>('GET', path, { key: h.key });
      expect(page.status).toBe(200);
      all.push(...page.body.data.map((s) => s.id));
      if (!page.body.next_cursor) {
        expect(page.headers.get('link')).toBeNull();
        break;
      }
      const link = page.headers.get('link')!;
      expect(link).toMatch(/^<\/api\/v1\/scans\?.*cursor=.*>; rel="next"$/);
      path = link.slice(1, link.indexOf('>'));
    }
    // Newest first: one server gives its scans strictly increasing creation times.
    expect(all).toEqual([...ids].reverse());

    const bySha = await h.request<ScanList>(
      'GET',
      `/api/v1/scans?siteId=listed&sha=${sha(1).toUpperCase()}`,
      {
        key: h.key,
      },
    );
    expect(bySha.body.data.map((s) => s.id)).toEqual([ids[3], ids[1]]);
    const byBranch = await h.request<ScanList>('GET', '/api/v1/scans?siteId=listed&branch=main', {
      key: h.key,
    });
    expect(byBranch.body.data).toHaveLength(1);
    expect(byBranch.body.data[0]).toMatchObject({
      id: ids[4],
      branch: 'main',
      engine: { name: 'custom-ci', version: '1.2.3' },
      run_attempt: 1,
      fingerprint_version: FINGERPRINT_VERSION,
      summary: { pages: 0 },
    });
    const bad = await h.request('GET', '/api/v1/scans?cursor=garbage', { key: h.key });
    expect(bad.status).toBe(422);
    expect((await h.request('GET', '/api/v1/scans?siteId=Not_Valid', { key: h.key })).status).toBe(422);
  });

  test('a large scan is streamed back complete and in order', async () => {
    const pages = Array.from({ length: 50 }, (_, p) => ({
      url: `/page/${p}`,
      issues: Array.from({ length: 100 }, (_, i) => ({
        rule: `rule-${i % 7}`,
        impact: 'moderate',
        selector: `#el-${p}-${i}`,
        html: `<div id="el-${p}-${i}">${'x'.repeat(200)}</div>`,
      })),
    }));
    const created = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: nativeScan({ siteId: 'large', pages }),
    });
    expect(created.status).toBe(201);
    expect(created.body.summary.issues).toBe(5000);
    const got = await h.request<ScanDetail>('GET', `/api/v1/scans/${created.body.id}`, { key: h.key });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toMatch(/^application\/json/);
    expect(got.body.issues).toHaveLength(5000);
    expect(got.body.issues.map((i) => i.selector)).toEqual(
      pages.flatMap((p, pi) => p.issues.map((_, i) => `#el-${pi}-${i}`)),
    );
    expect(got.body.issues[4999]).toMatchObject({ page_index: 49, page_url: '/page/49' });
  });

  test('waived issues are shown as waived: the oldest active waiver of the site, read live', async () => {
    const waive = async (k: string, body: Record<string, unknown>) => {
      const res = await h.request<Waiver>('POST', '/api/v1/waivers', {
        key: k,
        body: {
          reason: 'Known; fix tracked in JIRA-7',
          expires_at: new Date(Date.now() + 86_400_000).toISOString(),
          ...body,
        },
      });
      expect(res.status).toBe(201);
      return res.body.id;
    };
    // 50 pages × 100 issues: more than one streamed batch, so matching spans batch boundaries.
    const pages = Array.from({ length: 50 }, (_, p) => ({
      url: `/page/${p}`,
      issues: Array.from({ length: 100 }, (_, i) => ({ rule: `rule-${i % 7}`, selector: `#el-${p}-${i}` })),
    }));
    const created = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: nativeScan({ siteId: 'waived-view', pages }),
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const read = async () => (await h.request<ScanDetail>('GET', `/api/v1/scans/${id}`, { key: h.key })).body;

    const before = await read();
    expect(before.waived).toBe(0);
    expect(before.issues.every((i) => i.waiver_id === null)).toBe(true);

    // Pages 4 and 40-49 (11 pages) × 14 issues of rule-3 each; one element by selector on page 0.
    const byUrl = await waive(h.key, { siteId: 'waived-view', rule: 'rule-3', url_pattern: '/page/4*' });
    const bySelector = await waive(h.key, { siteId: 'waived-view', rule: 'rule-0', selector: '#el-0-7' });
    // Newer and broader: the issues the first waiver covers keep naming it (the oldest match).
    const broad = await waive(h.key, { siteId: 'waived-view', rule: 'rule-3' });
    // Another site's and another org's waivers cover nothing here.
    const otherKey = await h.createKey({ org: 'other-org' });
    for (const [k, site] of [
      [h.key, 'elsewhere'],
      [otherKey, 'waived-view'],
    ]) {
      expect(
        (await h.request('PATCH', `/api/v1/sites/${site}`, { key: k, body: { name: site } })).status,
      ).toBe(200);
    }
    await waive(h.key, { siteId: 'elsewhere', rule: 'rule-1' });
    await waive(otherKey, { siteId: 'waived-view', rule: 'rule-2' });

    const after = await read();
    const waiverOf = (p: number, i: number) => after.issues[p * 100 + i].waiver_id;
    expect(waiverOf(4, 3)).toBe(byUrl);
    expect(waiverOf(45, 10)).toBe(byUrl);
    expect(waiverOf(5, 3)).toBe(broad);
    expect(waiverOf(0, 7)).toBe(bySelector);
    expect(waiverOf(0, 14)).toBeNull();
    expect(waiverOf(0, 1)).toBeNull();
    expect(waiverOf(0, 2)).toBeNull();
    // rule-3: 14 issues on each of 50 pages, plus the one selector waiver.
    expect(after.waived).toBe(50 * 14 + 1);
    expect(after.issues.filter((i) => i.waiver_id !== null)).toHaveLength(after.waived);

    // Revoked, a waiver stops covering at once: the view is live, not a record.
    expect((await h.request('DELETE', `/api/v1/waivers/${broad}`, { key: h.key })).status).toBe(200);
    const revoked = await read();
    expect(revoked.issues[5 * 100 + 3].waiver_id).toBeNull();
    expect(revoked.issues[4 * 100 + 3].waiver_id).toBe(byUrl);
    expect(revoked.waived).toBe(11 * 14 + 1);
  });

  test('a gzip-compressed body is accepted', async () => {
    const raw = gzipSync(Buffer.from(JSON.stringify(nativeScan({ siteId: 'zipped' }))));
    const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      raw,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ siteId: 'zipped', summary: { issues: 3 } });
  });

  test('any text survives the batched insert unchanged', async () => {
    const nasty = [
      'NULL',
      '',
      '{"a": [1, 2]}',
      'quote " backslash \\ brace { } comma , semicolon ;',
      "single ' quote -- not a comment",
      'line\nbreak\ttab',
      'ünïcödé ✓ 😀 \u2028',
      '?? ? $1 :name',
    ];
    const issues = nasty.map((text, i) => ({
      rule: `rule-${i}`,
      message: text,
      selector: text || null,
      html: text,
      help_url: text,
      source: { path: text || 'x', line: i + 1 },
    }));
    const created = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: nativeScan({ siteId: 'texts', pages: [{ url: '/t', title: nasty[3], issues }] }),
    });
    expect(created.status).toBe(201);
    const got = await h.request<ScanDetail>('GET', `/api/v1/scans/${created.body.id}`, { key: h.key });
    expect(got.body.pages[0].title).toBe(nasty[3]);
    got.body.issues.forEach((issue, i) => {
      expect(issue.message).toBe(nasty[i]);
      expect(issue.html).toBe(nasty[i]);
      expect(issue.help_url).toBe(nasty[i]);
      expect(issue.selector).toBe(nasty[i] || null);
      expect(issue.source).toEqual({ path: nasty[i] || 'x', line: i + 1, column: null, method: null });
    });
  });

  test('what a database column cannot hold is 422 with a pointer (never a 500) and stores nothing', async () => {
    const before = await rowCounts(h);
    const page = (p: Record<string, unknown>) => nativeScan({ pages: [{ url: '/a', ...p }] });
    const manyCriteria = Array.from({ length: 40 }, (_, i) => `1.${1 + (i % 9)}.${10 + Math.floor(i / 9)}`);
    const cases: Array<[unknown, string]> = [
      // PostgreSQL text cannot hold U+0000; identifiers with it are refused.
      [nativeScan({ branch: 'ma\u0000in' }), '#/branch'],
      [page({ url: '/a\u0000' }), '#/pages/0/url'],
      [page({ issues: [{ rule: 'r\u0000' }] }), '#/pages/0/issues/0/rule'],
      [page({ issues: [{ rule: 'r', source: { path: 'a\u0000' } }] }), '#/pages/0/issues/0/source/path'],
      [nativeScan({ engine: { name: 'x\u0000' } }), '#/engine/name'],
      [page({ axe: { violations: [{ id: 'x\u0000', nodes: [] }] } }), '#/pages/0/axe/violations/0/id'],
      [page({ pa11y: [{ code: 'c\u0000' }] }), '#/pages/0/pa11y/0/code'],
      // Integer columns are 32-bit.
      [nativeScan({ run_attempt: 2 ** 31 }), '#/run_attempt'],
      [
        page({ issues: [{ rule: 'r', source: { path: 'a', line: 2 ** 31 } }] }),
        '#/pages/0/issues/0/source/line',
      ],
      // The rule column holds 200 characters; the criteria of one issue 255.
      [page({ pa11y: [{ code: 'x'.repeat(201) }] }), '#/pages/0/pa11y/0/code'],
      [page({ issues: [{ rule: 'r', wcag: manyCriteria }] }), '#/pages/0/issues/0/wcag'],
      [
        page({
          axe: {
            violations: [
              {
                id: 'x',
                tags: manyCriteria.map((c) => 'wcag' + c.replace(/\./g, '')),
                nodes: [{ target: ['a'] }],
              },
            ],
          },
        }),
        '#/pages/0/axe/violations/0/tags',
      ],
    ];
    for (const [body, pointer] of cases) {
      const res = await h.request<Problem>('POST', '/api/v1/scans', { key: h.key, body });
      expect({ pointer, status: res.status }).toEqual({ pointer, status: 422 });
      expect(res.body.errors!.map((e) => e.pointer)).toContain(pointer);
    }
    expect(await rowCounts(h)).toEqual(before);
    const list = await h.request('GET', '/api/v1/scans?branch=a%00b', { key: h.key });
    expect(list.status).toBe(422);
  });

  test('U+0000 in free text (markup, messages, titles) is stored as U+FFFD rather than refusing the scan', async () => {
    const created = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: nativeScan({
        pages: [
          {
            url: '/nul',
            title: 'T\u0000',
            issues: [
              {
                rule: 'r',
                message: 'm\u0000',
                selector: '#a\u0000',
                html: '<a title="\u0000">',
                help_url: 'https://h.example/\u0000',
              },
            ],
          },
          {
            url: '/axe',
            axe: { violations: [{ id: 'x', nodes: [{ target: ['#b'], failureSummary: 'f\u0000' }] }] },
          },
        ],
      }),
    });
    expect(created.status).toBe(201);
    const got = await h.request<ScanDetail>('GET', `/api/v1/scans/${created.body.id}`, { key: h.key });
    expect(got.body.pages[0].title).toBe('T\uFFFD');
    expect(got.body.issues[0]).toMatchObject({
      message: 'm\uFFFD',
      selector: '#a\uFFFD',
      html: '<a title="\uFFFD">',
      help_url: 'https://h.example/\uFFFD',
    });
    expect(got.body.issues[1].message).toBe('f\uFFFD');
  });

  test('a branch given as a git ref (GITHUB_REF) is stored and filtered by its name', async () => {
    const created = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: nativeScan({ siteId: 'refs', branch: 'refs/heads/release/1.2', pages: [] }),
    });
    expect(created.body.branch).toBe('release/1.2');
    for (const branch of ['release/1.2', 'refs/heads/release/1.2']) {
      const list = await h.request<ScanList>(
        'GET',
        `/api/v1/scans?siteId=refs&branch=${encodeURIComponent(branch)}`,
        {
          key: h.key,
        },
      );
      expect(list.body.data.map((s) => s.id)).toEqual([created.body.id]);
    }
  });

  test('an id or a forged cursor with U+0000 is 404 / 422, not a PostgreSQL error', async () => {
    expect((await h.request('GET', '/api/v1/scans/scn_a%00b', { key: h.key })).status).toBe(404);
    const forged = Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z\u0000', 'scn_x'])).toString(
      'base64url',
    );
    const res = await h.request<Problem>('GET', `/api/v1/scans?cursor=${forged}`, { key: h.key });
    expect(res.status).toBe(422);
    expect(res.body.errors![0].pointer).toBe('#/query/cursor');
  });

  test('a failure at the last step of the transaction leaves nothing behind', async () => {
    if (db === 'sqlite') {
      await h.db.raw(
        `CREATE TRIGGER fail_atomic BEFORE INSERT ON outbox_messages
         WHEN NEW.payload LIKE '%"siteId":"atomic"%' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
      );
    } else {
      await h.db.raw(`CREATE FUNCTION fail_atomic() RETURNS trigger AS $$
        BEGIN IF NEW.payload LIKE '%"siteId":"atomic"%' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END
        $$ LANGUAGE plpgsql`);
      await h.db.raw(
        'CREATE TRIGGER fail_atomic BEFORE INSERT ON outbox_messages FOR EACH ROW EXECUTE FUNCTION fail_atomic()',
      );
    }
    const before = await rowCounts(h);
    const res = await h.request<Problem>('POST', '/api/v1/scans', {
      key: h.key,
      body: nativeScan({ siteId: 'atomic' }),
    });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('internal');
    expect(res.text).not.toMatch(/injected|outbox|INSERT/i);
    expect(await rowCounts(h)).toEqual(before);
    expect(await h.db('sites').where({ site_id: 'atomic' })).toEqual([]);
    await h.db.raw('DROP TRIGGER fail_atomic' + (db === 'postgres' ? ' ON outbox_messages' : ''));
  });

  test('an issue row the database refuses in the last batch leaves nothing behind', async () => {
    if (db === 'sqlite') {
      await h.db.raw(
        `CREATE TRIGGER fail_issue BEFORE INSERT ON scan_issues
         WHEN NEW.rule = 'refused' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
      );
    } else {
      await h.db.raw(`CREATE FUNCTION fail_issue() RETURNS trigger AS $$
        BEGIN IF NEW.rule = 'refused' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END
        $$ LANGUAGE plpgsql`);
      await h.db.raw(
        'CREATE TRIGGER fail_issue BEFORE INSERT ON scan_issues FOR EACH ROW EXECUTE FUNCTION fail_issue()',
      );
    }
    const before = await rowCounts(h);
    // 25 pages × 50 issues: the refused row is in the last, partial batch, written after the others.
    const pages = Array.from({ length: 25 }, (_, p) => ({
      url: `/refused/${p}`,
      issues: Array.from({ length: 50 }, (_, i) => ({ rule: 'r', selector: `#e-${p}-${i}` })),
    }));
    pages[24].issues[49].rule = 'refused';
    const res = await h.request<Problem>('POST', '/api/v1/scans', {
      key: h.key,
      body: nativeScan({ siteId: 'refused-row', pages }),
    });
    expect(res.status).toBe(500);
    expect(await rowCounts(h)).toEqual(before);
    await h.db.raw('DROP TRIGGER fail_issue' + (db === 'postgres' ? ' ON scan_issues' : ''));
  });
});

describe.each(dbKinds)('scan limits (%s)', (db) => {
  const h = useHarness({
    db,
    org: 'acme',
    env: { MAX_PAGES_PER_SCAN: '5', MAX_ISSUES_PER_SCAN: '6', MAX_ISSUE_HTML_BYTES: '100' },
  });

  test('limits: too many pages or issues is 413 with a pointer and stores nothing; long html is truncated', async () => {
    const before = await rowCounts(h);
    const pages = Array.from({ length: 6 }, (_, i) => ({ url: `/p${i}` }));
    const tooManyPages = await h.request<Problem>('POST', '/api/v1/scans', {
      key: h.key,
      body: nativeScan({ pages }),
    });
    expect(tooManyPages.status).toBe(413);
    expect(tooManyPages.body).toMatchObject({ code: 'payload_too_large', errors: [{ pointer: '#/pages' }] });

    const issues = (n: number) => Array.from({ length: n }, (_, i) => ({ rule: 'r', selector: `#e${i}` }));
    const tooManyIssues = await h.request<Problem>('POST', '/api/v1/scans', {
      key: h.key,
      body: nativeScan({
        pages: [
          { url: '/a', issues: issues(4) },
          { url: '/b', issues: issues(3) },
        ],
      }),
    });
    expect(tooManyIssues.status).toBe(413);
    expect(tooManyIssues.body.errors).toEqual([
      { pointer: '#/pages/1', detail: expect.stringContaining('6') as unknown },
    ]);
    expect(await rowCounts(h)).toEqual(before);

    const long = 'é'.repeat(80); // 160 bytes
    const truncated = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: nativeScan({
        pages: [
          {
            url: '/a',
            issues: [
              { rule: 'r', html: long },
              { rule: 'q', html: 'short' },
            ],
          },
        ],
      }),
    });
    expect(truncated.status).toBe(201);
    expect(truncated.body.warnings).toEqual([
      { code: 'html_truncated', message: expect.any(String) as unknown, count: 1 },
    ]);
    const got = await h.request<ScanDetail>('GET', `/api/v1/scans/${truncated.body.id}`, { key: h.key });
    expect(got.body.issues[0].html).toBe('é'.repeat(50));
    expect(got.body.issues[1].html).toBe('short');
  });
});
