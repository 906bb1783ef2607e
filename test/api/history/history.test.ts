import { createDeliveryWorker } from '../../../api/jobs/webhooks.js';
import type { DeliveryWorker } from '../../../api/outbox/delivery-worker.js';
import { sweepBreaches } from '../../../api/services/history/deadlines.js';
import type {
  CreatedWebhook,
  HistoryIssueList,
  OrgDeadlines,
  Problem,
  SiteDeadlines,
  SiteHistory,
} from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';

const DAY_MS = 86_400_000;
/**
 * Day 0 of the story: 90 days before the latest 10:00 UTC that has passed (yesterday's before 10:00), so
 * day 90 is never in the future and the open issues' ages are whole at any hour; every scan is taken on a day
 * of it.
 */
const lastTen = new Date(Date.now() - 10 * 3_600_000).toISOString().slice(0, 10);
const D0 = Date.parse(`${lastTen}T10:00:00Z`) - 90 * DAY_MS;
const at = (day: number) => new Date(D0 + day * DAY_MS).toISOString();
const dayOf = (day: number) => at(day).slice(0, 10);

type Issue = [page: string, rule: string, impact: string, selector: string];
const C1: Issue = ['/', 'image-alt', 'critical', '#logo'];
const S1: Issue = ['/cart', 'color-contrast', 'serious', '#buy'];
const M1: Issue = ['/old', 'region', 'moderate', '#x'];
const N1: Issue = ['/', 'link-name', 'minor', '#nav'];
const B1: Issue = ['/', 'label', 'serious', '#q'];
const B2: Issue = ['/', 'button-name', 'critical', '#go'];

/**
 * The story of two sites over 90 days, every figure worked out by hand:
 *
 * shop (main): day 0 scans /, /cart, /old with c1 (critical), s1 (serious), m1 (moderate). Day 10: s1 is
 * fixed; /old is not scanned (m1 is no longer scanned, not fixed). Day 40: s1 is back (a regression), /old
 * is back with m1 (a return: its deadline keeps counting from day 0). Day 20 arrives last, imported with a
 * past scanned_at: c1 and n1 (minor, new), n1 gone again on day 40 (fixed). A partial scan on day 50
 * without s1 and a feature-branch scan without anything change nothing.
 *
 * blog (main): day 5: b1 (serious), b2 (critical); day 70: b1 fixed.
 *
 * Deadlines: the org sets critical 20, serious 60, moderate 90, minor none; shop overrides moderate 45.
 * So c1 is overdue from day 20, m1 from day 45, b2 from day 25; s1 (since day 40) is due on day 100.
 */
describe.each(dbKinds)('site history and deadlines (%s)', (db) => {
  let rx: Receiver;
  let worker: DeliveryWorker;
  afterAll(async () => {
    await worker.stop();
    await rx.close();
  });
  const h = useHarness({ db, org: 'acme', env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  let admin: string;
  let readOnly: string;

  const scan = async (
    siteId: string,
    day: number,
    pages: string[],
    issues: Issue[],
    extra: Record<string, unknown> = {},
  ) => {
    const res = await h.request('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        siteId,
        url: `https://${siteId}.example/`,
        branch: 'main',
        scanned_at: at(day),
        ...extra,
        pages: pages.map((p) => ({
          url: `https://${siteId}.example${p}`,
          issues: issues
            .filter((i) => i[0] === p)
            .map(([, rule, impact, selector]) => ({ rule, impact, selector })),
        })),
      },
    });
    expect(res.status).toBe(201);
  };
  const history = (siteId: string, query: string, key = h.key) =>
    h.request<SiteHistory>('GET', `/api/v1/sites/${siteId}/history?${query}`, { key });
  const day = (hs: SiteHistory, d: number) => {
    const p = hs.points.find((x) => x.start === dayOf(d))!;
    return [
      p.open_total,
      p.open.critical,
      p.open.serious,
      p.open.moderate,
      p.open.minor,
      p.new,
      p.fixed,
      p.regressions,
      p.overdue,
    ];
  };

  beforeAll(async () => {
    admin = await h.createKey({ org: 'acme', scopes: ['admin', 'read'] });
    readOnly = await h.createKey({ org: 'acme', scopes: ['read'] });
    rx = await startReceiver();
    worker = createDeliveryWorker(h.server.service.ctx, { retryDelaysMs: [0, 50], timeoutMs: 2000 });
    const sub = await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
      key: h.key,
      body: { url: rx.url + '/sla', events: ['sla.breached'] },
    });
    rx.secrets.set('/sla', sub.body.secret);

    await scan('shop', 0, ['/', '/cart', '/old'], [C1, S1, M1]);
    await scan('shop', 10, ['/', '/cart'], [C1]);
    await scan('shop', 40, ['/', '/cart', '/old'], [C1, S1, M1]);
    await scan('shop', 50, ['/cart'], [], { scope: 'partial' });
    await scan('shop', 55, ['/', '/cart', '/old'], [], { branch: 'feature' });
    await scan('shop', 20, ['/', '/cart'], [C1, N1]);
    await scan('blog', 5, ['/'], [B1, B2]);
    await scan('blog', 70, ['/'], [B2]);
  });

  test('deadlines: defaults, the org sets its own (admin only), a site overrides one impact', async () => {
    expect((await h.request<OrgDeadlines>('GET', '/api/v1/deadlines', { key: readOnly })).body).toEqual({
      days: { critical: 30, serious: 60, moderate: 90, minor: null },
      updated_at: null,
    });
    const days = { critical: 20, serious: 60, moderate: 90, minor: null };
    expect((await h.request<Problem>('PUT', '/api/v1/deadlines', { key: readOnly, body: days })).status).toBe(
      403,
    );
    const bad = await h.request<Problem>('PUT', '/api/v1/deadlines', {
      key: admin,
      body: { ...days, critical: 0 },
    });
    expect(bad.status).toBe(422);
    expect(
      (await h.request<OrgDeadlines>('GET', '/api/v1/deadlines', { key: readOnly })).body.updated_at,
    ).toBeNull();
    const set = await h.request<OrgDeadlines>('PUT', '/api/v1/deadlines', { key: admin, body: days });
    expect(set.status).toBe(200);
    expect(set.body.days).toEqual(days);

    const site = await h.request<SiteDeadlines>('PUT', '/api/v1/sites/shop/deadlines', {
      key: admin,
      body: { moderate: 45 },
    });
    expect(site.body).toMatchObject({ overrides: { moderate: 45 }, days: { ...days, moderate: 45 } });
    expect((await h.request('PUT', '/api/v1/sites/nowhere/deadlines', { key: admin, body: {} })).status).toBe(
      404,
    );
  });

  test('the daily series: open by impact, new, fixed, regressions and overdue, with the imported past scan in its place', async () => {
    const res = await history('shop', `from=${dayOf(0)}&to=${dayOf(89)}`);
    expect(res.status).toBe(200);
    expect(res.body.points).toHaveLength(90);
    //                     total crit ser mod min new fixed regr overdue
    expect(day(res.body, 0)).toEqual([3, 1, 1, 1, 0, 3, 0, 0, 0]);
    expect(day(res.body, 5)).toEqual([3, 1, 1, 1, 0, 0, 0, 0, 0]);
    expect(day(res.body, 10)).toEqual([1, 1, 0, 0, 0, 0, 1, 0, 0]);
    expect(day(res.body, 19)).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 0]);
    expect(day(res.body, 20)).toEqual([2, 1, 0, 0, 1, 1, 0, 0, 1]);
    expect(day(res.body, 40)).toEqual([3, 1, 1, 1, 0, 0, 1, 1, 1]);
    expect(day(res.body, 44)).toEqual([3, 1, 1, 1, 0, 0, 0, 0, 1]);
    expect(day(res.body, 45)).toEqual([3, 1, 1, 1, 0, 0, 0, 0, 2]);
    expect(day(res.body, 50)).toEqual([3, 1, 1, 1, 0, 0, 0, 0, 2]);
    expect(day(res.body, 89)).toEqual([3, 1, 1, 1, 0, 0, 0, 0, 2]);

    const blog = (await history('blog', `from=${dayOf(0)}&to=${dayOf(89)}`)).body;
    expect(day(blog, 4)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(day(blog, 5)).toEqual([2, 1, 1, 0, 0, 2, 0, 0, 0]);
    expect(day(blog, 25)).toEqual([2, 1, 1, 0, 0, 0, 0, 0, 1]);
    expect(day(blog, 70)).toEqual([1, 1, 0, 0, 0, 0, 1, 0, 1]);
  });

  test('by month, the intervals sum the days; by week they start on Monday', async () => {
    const months = (await history('shop', `from=${dayOf(0)}&to=${dayOf(89)}&interval=month`)).body.points;
    const sum = (k: 'new' | 'fixed' | 'regressions') => months.reduce((a, p) => a + p[k], 0);
    expect([sum('new'), sum('fixed'), sum('regressions')]).toEqual([4, 2, 1]);
    expect(months[0].start).toBe(dayOf(0));
    expect(months[months.length - 1]).toMatchObject({ end: dayOf(89), open_total: 3, overdue: 2 });
    const weeks = (await history('shop', `from=${dayOf(0)}&to=${dayOf(89)}&interval=week`)).body.points;
    for (const w of weeks.slice(1)) expect(new Date(`${w.start}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(weeks.reduce((a, p) => a + p.new, 0)).toBe(4);
  });

  test('CSV by ?format=csv or Accept: text/csv, the same figures', async () => {
    const csv = await history('shop', `from=${dayOf(0)}&to=${dayOf(1)}&format=csv`);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.text).toBe(
      'site_id,start,end,open_total,open_critical,open_serious,open_moderate,open_minor,open_unknown,new,fixed,regressions,overdue\r\n' +
        `shop,${dayOf(0)},${dayOf(0)},3,1,1,1,0,0,3,0,0,0\r\n` +
        `shop,${dayOf(1)},${dayOf(1)},3,1,1,1,0,0,0,0,0,0\r\n`,
    );
    const accepted = await h.request('GET', `/api/v1/sites/shop/history?from=${dayOf(0)}&to=${dayOf(1)}`, {
      key: h.key,
      headers: { accept: 'text/csv' },
    });
    expect(accepted.text).toBe(csv.text);
  });

  test('the issues by identity: first seen, fixed, regressions, due date and overdue', async () => {
    const res = await h.request<HistoryIssueList>('GET', '/api/v1/sites/shop/history/issues', { key: h.key });
    expect(res.status).toBe(200);
    const byRule = Object.fromEntries(res.body.data.map((i) => [i.rule, i]));
    expect(Object.keys(byRule).sort()).toEqual(['color-contrast', 'image-alt', 'link-name', 'region']);
    expect(byRule['image-alt']).toMatchObject({
      status: 'open',
      page: '/',
      first_seen: at(0),
      since: at(0),
      regressions: 0,
      age_days: 90,
      due_at: at(20),
      overdue: true,
    });
    expect(byRule['color-contrast']).toMatchObject({
      status: 'open',
      first_seen: at(0),
      since: at(40),
      fixed_at: null,
      regressions: 1,
      due_at: at(100),
      overdue: false,
    });
    expect(byRule.region).toMatchObject({ status: 'open', since: at(0), due_at: at(45), overdue: true });
    expect(byRule['link-name']).toMatchObject({
      status: 'fixed',
      fixed_at: at(40),
      due_at: null,
      age_days: null,
    });
    const open = await h.request<HistoryIssueList>(
      'GET',
      '/api/v1/sites/shop/history/issues?status=open&limit=2',
      {
        key: h.key,
      },
    );
    expect(open.body.data).toHaveLength(2);
    const rest = await h.request<HistoryIssueList>(
      'GET',
      `/api/v1/sites/shop/history/issues?status=open&limit=2&cursor=${open.body.next_cursor}`,
      { key: h.key },
    );
    expect([...open.body.data, ...rest.body.data].map((i) => i.rule).sort()).toEqual([
      'color-contrast',
      'image-alt',
      'region',
    ]);
    expect(rest.body.next_cursor).toBeNull();
  });

  test('sla.breached arrives once per overdue issue, however often and however many sweeps run', async () => {
    const ctx = h.server.service.ctx;
    const counts = await Promise.all([sweepBreaches(ctx), sweepBreaches(ctx), sweepBreaches(ctx)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    expect(await sweepBreaches(ctx)).toBe(0);
    worker.start();
    await rx.waitFor(3, 15_000);
    await new Promise((r) => setTimeout(r, 300));
    const got = rx.received.filter((r) => r.verified && r.payload.type === 'sla.breached');
    expect(got).toHaveLength(3);
    expect(
      got.map((r) => [r.payload.data.siteId, r.payload.data.rule, r.payload.data.due_at]).sort(),
    ).toEqual([
      ['blog', 'button-name', at(25)],
      ['shop', 'image-alt', at(20)],
      ['shop', 'region', at(45)],
    ]);
  });

  test('refusals: a scanned_at in the future stores nothing, a reversed range, an unknown site', async () => {
    const before = Number((await h.db('scans').count({ n: '*' }))[0].n);
    const future = await h.request<Problem>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        siteId: 'shop',
        url: 'https://shop.example/',
        branch: 'main',
        scanned_at: new Date(Date.now() + DAY_MS).toISOString(),
        pages: [{ url: 'https://shop.example/', issues: [] }],
      },
    });
    expect(future.status).toBe(422);
    const notIso = await h.request<Problem>('POST', '/api/v1/scans', {
      key: h.key,
      body: { siteId: 'shop', url: 'https://shop.example/', scanned_at: 'yesterday', pages: [] },
    });
    expect(notIso.status).toBe(422);
    expect(Number((await h.db('scans').count({ n: '*' }))[0].n)).toBe(before);
    expect((await history('shop', `from=${dayOf(5)}&to=${dayOf(1)}`)).status).toBe(422);
    expect((await history('nowhere', '')).status).toBe(404);
  });
});
