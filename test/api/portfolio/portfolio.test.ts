import { portfolioSeries } from '../../../api/services/portfolio/view.js';
import type { Portfolio, Problem, Section508, SiteHistory, TopFixList } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';

const DAY_MS = 86_400_000;
const thisYear = new Date().getUTCFullYear();
const lastYear = thisYear - 1;
/** Day 0 of the story: 3 March of last year, 10:00 UTC. Day 29 is 1 April, day 59 is 1 May, day 89 is 31 May. */
const D0 = Date.parse(`${lastYear}-03-03T10:00:00Z`);
const at = (day: number) => new Date(D0 + day * DAY_MS).toISOString();
const APRIL = `from=${lastYear}-04-01&to=${lastYear}-04-30`;
const MAY = `from=${lastYear}-05-01&to=${lastYear}-05-31`;

interface Issue {
  page: string;
  rule: string;
  impact: string;
  selector: string;
  html?: string;
  source?: { path: string; line: number };
}
const buy = (hash: string) => `<button class="buy css-${hash}">Buy</button>`;
const C1: Issue = {
  page: '/',
  rule: 'image-alt',
  impact: 'critical',
  selector: '#logo',
  source: { path: 'src/Logo.tsx', line: 3 },
};
const S1: Issue = {
  page: '/cart',
  rule: 'color-contrast',
  impact: 'serious',
  selector: '#buy',
  html: buy('ab12cd'),
};
const S2: Issue = {
  page: '/',
  rule: 'color-contrast',
  impact: 'serious',
  selector: '#buy2',
  html: buy('ef34ab'),
};
const M1: Issue = { page: '/old', rule: 'region', impact: 'moderate', selector: '#x' };
const N1: Issue = { page: '/', rule: 'link-name', impact: 'minor', selector: '#nav' };
const B1: Issue = { page: '/', rule: 'label', impact: 'serious', selector: '#q' };
const B2: Issue = {
  page: '/',
  rule: 'button-name',
  impact: 'critical',
  selector: '#go',
  html: '<button class="go">',
};
const B3: Issue = {
  page: '/about',
  rule: 'button-name',
  impact: 'critical',
  selector: '#go2',
  html: '<button class="go">',
};
const D1: Issue = { page: '/', rule: 'image-alt', impact: 'minor', selector: '#i' };

/**
 * The org's view of three sites over 90 days of last spring, every figure worked out by hand. shop and
 * blog carry the tag `retail`; docs carries none. Deadlines: the defaults (30 critical, 60 serious, 90
 * moderate), shop overrides moderate with 45.
 *
 * shop: day 0 /, /cart, /old with c1 (critical, located at src/Logo.tsx:3), s1 (serious), m1 (moderate).
 *   Day 10: /, /cart with c1 (s1 fixed, m1 no longer scanned). Day 40: c1, s1 (a regression), m1 (back
 *   with /old: a return, due from day 0), s2 (new: the same button markup as s1, on /). Day 70: n1 (minor)
 *   new. Day 80: /, /cart, /old, /about with c1, s1, s2 (m1 and n1 fixed). Today: the same as day 80.
 * blog: day 5 / with b1 (serious), b2 (critical). Day 50: /, /about with b2, b3 (the same button markup
 *   as b2, on /about; new); b1 fixed. Day 75: b1 back (a regression).
 * docs: day 60 / with d1 (minor).
 *
 * April (days 29-58), overdue at 1 May 00:00: shop c1 (due day 30) and m1 (due day 45 under its 45 days);
 * blog b2 (due day 35); b3 is due on day 80. May (days 59-89), overdue at 1 June: shop c1; blog b2, b3.
 */
describe.each(dbKinds)('the org view (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });
  let admin: string;
  let readOnly: string;

  const scan = async (siteId: string, day: number | null, pages: string[], issues: Issue[]) => {
    const res = await h.request('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        siteId,
        url: `https://${siteId}.example/`,
        branch: 'main',
        ...(day === null ? {} : { scanned_at: at(day) }),
        pages: pages.map((p) => ({
          url: `https://${siteId}.example${p}`,
          issues: issues.filter((i) => i.page === p).map(({ page: _page, ...rest }) => rest),
        })),
      },
    });
    expect(res.status).toBe(201);
  };
  const view = (query: string, key = readOnly) =>
    h.request<Portfolio>('GET', `/api/v1/portfolio?${query}`, { key });

  beforeAll(async () => {
    admin = await h.createKey({ org: 'acme', scopes: ['admin', 'read'] });
    readOnly = await h.createKey({ org: 'acme', scopes: ['read'] });
    await scan('shop', 0, ['/', '/cart', '/old'], [C1, S1, M1]);
    await scan('shop', 10, ['/', '/cart'], [C1]);
    // Imported out of order: the history and the kept figures place them by their time.
    await scan('shop', 70, ['/', '/cart', '/old'], [C1, S1, S2, M1, N1]);
    await scan('shop', 40, ['/', '/cart', '/old'], [C1, S1, M1, S2]);
    await scan('shop', 80, ['/', '/cart', '/old', '/about'], [C1, S1, S2]);
    await scan('blog', 5, ['/'], [B1, B2]);
    await scan('blog', 50, ['/', '/about'], [B2, B3]);
    await scan('blog', 75, ['/', '/about'], [B1, B2, B3]);
    await scan('docs', 60, ['/'], [D1]);
    await scan('shop', null, ['/', '/cart', '/old', '/about'], [C1, S1, S2]);
    for (const [siteId, tags] of [
      ['shop', ['retail']],
      ['blog', ['retail']],
    ] as const)
      expect(
        (await h.request('PUT', `/api/v1/sites/${siteId}/tags`, { key: admin, body: { tags } })).status,
      ).toBe(200);
    expect(
      (await h.request('PUT', '/api/v1/sites/shop/deadlines', { key: admin, body: { moderate: 45 } })).status,
    ).toBe(200);
  });

  test('May against April: open and trend, new, fixed, regressions, overdue per site, for the group and the org', async () => {
    const res = await view(MAY);
    expect(res.status).toBe(200);
    const p = res.body;
    expect([p.from, p.to, p.group]).toEqual([`${lastYear}-05-01`, `${lastYear}-05-31`, null]);
    const row = (s: Portfolio['sites'][number]) => [
      s.siteId,
      s.tags.join(),
      s.open_total,
      s.open.critical,
      s.open.serious,
      s.open.moderate,
      s.open.minor,
      s.open_before,
      s.change,
      s.new,
      s.fixed,
      s.regressions,
      s.overdue,
      s.worse,
    ];
    //                site   tags   open crit ser mod min before change new fixed regr overdue worse
    expect(p.sites.map(row)).toEqual([
      ['blog', 'retail', 3, 2, 1, 0, 0, 2, 1, 0, 0, 1, 2, true],
      ['docs', '', 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, true],
      ['shop', 'retail', 3, 1, 2, 0, 0, 4, -1, 1, 2, 0, 1, false],
    ]);
    expect(p.totals).toMatchObject({
      sites: 3,
      open: { critical: 3, serious: 3, moderate: 0, minor: 1, unknown: 0 },
      open_total: 7,
      open_before: 6,
      change: 1,
      new: 2,
      fixed: 2,
      regressions: 1,
      overdue: 3,
      worse: ['blog', 'docs'],
    });
    expect(p.groups.map((g) => g.group)).toEqual(['retail']);
    expect(p.groups[0]).toMatchObject({
      sites: 2,
      open_total: 6,
      open_before: 6,
      change: 0,
      new: 1,
      fixed: 2,
      regressions: 1,
      overdue: 3,
      worse: ['blog'],
    });
  });

  test("April: a site's own deadline counts (m1 overdue under shop's 45 days), and shop got worse", async () => {
    const p = (await view(APRIL)).body;
    const shop = p.sites.find((s) => s.siteId === 'shop')!;
    expect([
      shop.open_before,
      shop.open_total,
      shop.new,
      shop.fixed,
      shop.regressions,
      shop.overdue,
      shop.worse,
    ]).toEqual([1, 4, 1, 0, 1, 2, true]);
    const blog = p.sites.find((s) => s.siteId === 'blog')!;
    expect([
      blog.open_before,
      blog.open_total,
      blog.new,
      blog.fixed,
      blog.regressions,
      blog.overdue,
      blog.worse,
    ]).toEqual([2, 2, 1, 1, 0, 1, false]);
    expect(p.sites.find((s) => s.siteId === 'docs')).toMatchObject({
      open_total: 0,
      open_before: 0,
      worse: false,
    });
    expect(p.totals).toMatchObject({ open_total: 6, open_before: 3, overdue: 3, worse: ['shop'] });
  });

  test("the org's series (the console's chart) is every site's history summed, interval by interval", async () => {
    const ctx = h.server.service.ctx;
    const today = new Date().toISOString().slice(0, 10);
    const yearAgo = new Date(Date.now() - 364 * DAY_MS).toISOString().slice(0, 10);
    const ranges = [
      [`${lastYear}-03-01`, `${lastYear}-06-30`, 'day', undefined, ['shop', 'blog', 'docs']],
      [`${lastYear}-03-01`, `${lastYear}-12-31`, 'week', 'retail', ['shop', 'blog']],
      [yearAgo, today, 'month', undefined, ['shop', 'blog', 'docs']],
    ] as const;
    for (const [from, to, interval, group, sites] of ranges) {
      const series = await portfolioSeries(ctx, 'acme', { from, to, interval, group });
      const histories = await Promise.all(
        sites.map(
          async (id) =>
            (
              await h.request<SiteHistory>(
                'GET',
                `/api/v1/sites/${id}/history?from=${from}&to=${to}&interval=${interval}`,
                { key: readOnly },
              )
            ).body.points,
        ),
      );
      const summed = histories[0].map((p, i) => {
        const sum = (f: (x: SiteHistory['points'][number]) => number) =>
          histories.reduce((a, points) => a + f(points[i]), 0);
        return [
          p.start,
          sum((x) => x.open_total),
          sum((x) => x.new),
          sum((x) => x.fixed),
          sum((x) => x.regressions),
          sum((x) => x.overdue),
        ];
      });
      expect({
        interval,
        points: series.map((p) => [p.start, p.openTotal, p.new, p.fixed, p.regressions, p.overdue]),
      }).toEqual({ interval, points: summed });
    }
    // Not a series of zeros: April's end has the overdue issues worked out above (shop c1 and m1, blog b2).
    const april = await portfolioSeries(ctx, 'acme', {
      from: `${lastYear}-04-30`,
      to: `${lastYear}-04-30`,
      interval: 'day',
    });
    expect(april.map((p) => p.overdue)).toEqual([3]);
  });

  test('the top fixes: shared markup and located source ranked by pages weighted by impact, per site, group and org', async () => {
    const org = (await view(`${MAY}&top=5`)).body.totals.top_fixes;
    expect(org.map((f) => [f.siteId, f.kind, f.rules.join(), f.score, f.page_count, f.issue_count])).toEqual([
      ['blog', 'markup', 'button-name', 20, 2, 2],
      ['shop', 'markup', 'color-contrast', 10, 2, 2],
      ['shop', 'source', 'image-alt', 10, 1, 1],
      ['blog', 'selector', 'label', 5, 1, 1],
      ['docs', 'selector', 'image-alt', 1, 1, 1],
    ]);
    expect(org[0]).toMatchObject({
      markup: '<button class=go>',
      code: null,
      impact: 'critical',
      pages: ['https://blog.example/', 'https://blog.example/about'],
    });
    expect(org[1]).toMatchObject({
      markup: '<button class=buy css-*>',
      pages: ['https://shop.example/', 'https://shop.example/cart'],
    });
    expect(org[2]).toMatchObject({ path: 'src/Logo.tsx', line: 3, code: 'src/Logo.tsx:3', markup: null });

    const group = (await view(`${MAY}&group=retail&top=2`)).body;
    expect(group.group).toBe('retail');
    expect(group.sites.map((s) => s.siteId)).toEqual(['blog', 'shop']);
    expect(group.totals.top_fixes.map((f) => [f.siteId, f.score])).toEqual([
      ['blog', 20],
      ['shop', 10],
    ]);
    expect(group.totals).toMatchObject({ sites: 2, open_total: 6, overdue: 3 });

    const site = await h.request<TopFixList>('GET', '/api/v1/sites/shop/fixes', { key: readOnly });
    expect(site.status).toBe(200);
    expect(site.body.weights).toEqual({ critical: 10, serious: 5, moderate: 2, minor: 1, unknown: 1 });
    expect(site.body.data.map((f) => [f.kind, f.score])).toEqual([
      ['markup', 10],
      ['source', 10],
    ]);
    const fixes = await h.request<TopFixList>('GET', '/api/v1/fixes?group=retail&top=1', { key: readOnly });
    expect(fixes.body.data.map((f) => f.siteId)).toEqual(['blog']);
  });

  test('the Section 508 figures of a year: pages scanned, assessed by people, fully conformant', async () => {
    const last = await h.request<Section508>('GET', `/api/v1/portfolio/section508?year=${lastYear}`, {
      key: readOnly,
    });
    expect(last.status).toBe(200);
    // shop: /, /cart, /old, /about; at their last scan (day 80) / and /cart had issues. blog: both pages had. docs too.
    expect(
      last.body.sites.map((s) => [
        s.siteId,
        s.pages_in_scope,
        s.tested_automatically,
        s.assessed_by_people,
        s.fully_conformant,
      ]),
    ).toEqual([
      ['blog', 2, 2, 0, 0],
      ['docs', 1, 1, 0, 0],
      ['shop', 4, 4, 0, 2],
    ]);
    expect(last.body.totals).toEqual({
      pages_in_scope: 7,
      tested_automatically: 7,
      assessed_by_people: 0,
      fully_conformant: 2,
    });

    // This year: today's scan of shop, and a person's results now: /old fails 1.1.1, /about passes it.
    const a = await h.request<{ id: string }>('POST', '/api/v1/assessments', {
      key: h.key,
      body: {
        siteId: 'shop',
        title: 'Spring audit',
        standard: { wcag: '2.2', level: 'AA' },
        sample: { pages: ['https://shop.example/old', 'https://shop.example/about'] },
      },
    });
    expect(a.status).toBe(201);
    for (const [page, outcome] of [
      ['https://shop.example/old', 'failed'],
      ['https://shop.example/about', 'passed'],
    ])
      expect(
        (
          await h.request('PUT', `/api/v1/assessments/${a.body.id}/results/1.1.1`, {
            key: h.key,
            body: { page, outcome, tester: 'Grace Officer' },
          })
        ).status,
      ).toBe(200);
    const now = await h.request<Section508>(
      'GET',
      `/api/v1/portfolio/section508?year=${thisYear}&group=retail`,
      {
        key: readOnly,
      },
    );
    expect(now.body.group).toBe('retail');
    expect(
      now.body.sites.map((s) => [
        s.siteId,
        s.pages_in_scope,
        s.tested_automatically,
        s.assessed_by_people,
        s.fully_conformant,
      ]),
    ).toEqual([
      ['blog', 0, 0, 0, 0],
      ['shop', 4, 4, 2, 1],
    ]);
    const csv = await h.request(
      'GET',
      `/api/v1/portfolio/section508?year=${thisYear}&group=retail&format=csv`,
      {
        key: readOnly,
      },
    );
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.text).toBe(
      'site_id,year,pages_in_scope,tested_automatically,assessed_by_people,fully_conformant\r\n' +
        `blog,${thisYear},0,0,0,0\r\n` +
        `shop,${thisYear},4,4,2,1\r\n`,
    );
  });

  test('the CSV export for BI tools: one header row, ISO dates, plain numbers', async () => {
    const csv = await h.request('GET', `/api/v1/portfolio?${MAY}`, {
      key: readOnly,
      headers: { accept: 'text/csv' },
    });
    expect(csv.status).toBe(200);
    expect(csv.text).toBe(
      'site_id,from,to,tags,open_total,open_critical,open_serious,open_moderate,open_minor,open_unknown,open_before,change,new,fixed,regressions,overdue,worse\r\n' +
        `blog,${lastYear}-05-01,${lastYear}-05-31,retail,3,2,1,0,0,0,2,1,0,0,1,2,true\r\n` +
        `docs,${lastYear}-05-01,${lastYear}-05-31,,1,0,0,0,1,0,0,1,1,0,0,0,true\r\n` +
        `shop,${lastYear}-05-01,${lastYear}-05-31,retail,3,1,2,0,0,0,4,-1,1,2,0,1,false\r\n`,
    );
  });

  test('refusals: an unknown group, a reversed or too long range, a bad top, another org sees none of it', async () => {
    expect(
      (await h.request<Problem>('GET', '/api/v1/portfolio?group=nowhere', { key: readOnly })).status,
    ).toBe(404);
    expect((await h.request<Problem>('GET', '/api/v1/fixes?group=nowhere', { key: readOnly })).status).toBe(
      404,
    );
    expect((await view(`from=${lastYear}-05-31&to=${lastYear}-05-01`)).status).toBe(422);
    expect((await view(`from=${lastYear - 4}-01-01&to=${lastYear}-05-01`)).status).toBe(422);
    expect((await view('top=0')).status).toBe(422);
    expect(
      (await h.request<Problem>('GET', '/api/v1/portfolio/section508?year=1999', { key: readOnly })).status,
    ).toBe(422);
    expect((await h.request('GET', '/api/v1/sites/nowhere/fixes', { key: readOnly })).status).toBe(404);
    const other = await h.createKey({ org: 'globex', scopes: ['read'] });
    const theirs = await view(MAY, other);
    expect(theirs.body.sites).toEqual([]);
    expect(theirs.body.totals.top_fixes).toEqual([]);
    expect((await h.request('GET', '/api/v1/sites/shop/fixes', { key: other })).status).toBe(404);
  });
});
