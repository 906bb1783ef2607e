import { randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import { controlClock } from '../helpers/clock.js';
import type { CreatedScan, DeployList, KeyInfo, Problem, Site, SiteTrend } from '../helpers/api-types.js';
import { dbKinds, useHarness } from '../helpers/harness.js';
import { ConsoleClient } from './client.js';
import { seedConsole, type Seeded } from './seed.js';

describe.each(dbKinds)('console sessions and pages over HTTP (%s)', (db) => {
  const h = useHarness({ db });
  let s: Seeded;
  beforeAll(async () => {
    s = await seedConsole(h);
  });

  test('GET / without a session leads to the sign-in page, which comes back to the page asked for', async () => {
    const c = new ConsoleClient(h.url);
    const first = await c.get(`/scans/${s.headScanId}`);
    expect(first.status).toBe(303);
    expect(first.location).toBe(`/sign-in?next=${encodeURIComponent(`/scans/${s.headScanId}`)}`);
    expect((await c.get('/')).location).toBe('/sign-in?next=%2F');
    const form = await c.get(first.location!);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<label for="key">API key</label>');
    const res = await c.post('/sign-in', {
      _csrf: ConsoleClient.csrfOf(form.text),
      key: s.key,
      next: `/scans/${s.headScanId}`,
    });
    expect(res).toMatchObject({ status: 303, location: `/scans/${s.headScanId}` });
    const page = await c.get(`/scans/${s.headScanId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).not.toMatch(/<script|style=/);
  });

  test('the session cookie is HttpOnly and SameSite=Lax, and stored only as a hash', async () => {
    const res = await fetch(`${h.url}/sign-in`);
    const csrf = ConsoleClient.csrfOf(await res.text());
    const signIn = res.headers.getSetCookie()[0].split(';')[0];
    const posted = await fetch(`${h.url}/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: signIn, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, key: s.key, next: 'https://evil.example/' }),
    });
    expect(posted.headers.get('location')).toBe('/');
    const cookie = posted.headers.getSetCookie().find((c) => c.startsWith('a11y_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const token = cookie.split(';')[0].split('=')[1];
    const rows = await h.db('console_sessions').select('token_hash');
    expect(rows.map((r: { token_hash: string }) => r.token_hash)).not.toContain(token);
  });

  test('a wrong key is refused with the same answer whatever it is, and opens no session', async () => {
    const c = new ConsoleClient(h.url);
    const before = await h.db('console_sessions').count({ n: '*' });
    for (const key of ['nonsense', s.key.slice(0, -2) + 'xx']) {
      const res = await c.submitSignIn(key);
      expect(res.status).toBe(401);
      expect(res.text).toContain('This API key is unknown, revoked or expired.');
    }
    expect(await h.db('console_sessions').count({ n: '*' })).toEqual(before);
  });

  test("another org's scan, deploy event, site and report are 404 pages", async () => {
    const c = new ConsoleClient(h.url);
    await c.signIn(s.otherKey);
    for (const path of [
      `/scans/${s.headScanId}`,
      `/deploys/${s.deployId}`,
      `/sites/${s.siteId}`,
      `/reports/${s.reportId}`,
    ]) {
      const res = await c.get(path);
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect((await c.get(`/scans/${s.otherScanId}`)).status).toBe(200);
  });

  test('a form without its CSRF token is refused and changes nothing', async () => {
    const c = new ConsoleClient(h.url);
    await c.signIn(s.key);
    const before = await h.db('waivers').count({ n: '*' });
    const form = { fingerprint: s.failingFingerprint, reason: 'vendor fix due', expires: '2027-01-01' };
    expect((await c.post(`/deploys/${s.deployId}/waive`, form)).status).toBe(403);
    expect((await c.post(`/deploys/${s.deployId}/waive`, { ...form, _csrf: 'forged' })).status).toBe(403);
    expect((await c.post(`/sites/${s.siteId}/settings`, { base_branch: 'evil' })).status).toBe(403);
    expect(await h.db('waivers').count({ n: '*' })).toEqual(before);
    expect((await c.post('/sign-in', { key: s.key, next: '/' })).status).toBe(403);
  });

  test('a read-only key sees pages but its session cannot waive', async () => {
    const c = new ConsoleClient(h.url);
    await c.signIn(s.readOnlyKey);
    const page = await c.get(`/deploys/${s.deployId}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Waive this issue');
    const res = await c.post(`/deploys/${s.deployId}/waive`, {
      _csrf: ConsoleClient.csrfOf(page.text),
      fingerprint: s.failingFingerprint,
      reason: 'x',
      expires: '2027-01-01',
    });
    expect(res.status).toBe(403);
  });

  test('the site page shows the retention periods, and its settings form changes them', async () => {
    const c = new ConsoleClient(h.url);
    await c.signIn(s.key);
    const page = await c.get(`/sites/${s.siteId}`);
    expect(page.text).toContain('base branch scans 400 days, other scans 30 days, gate decisions 400 days');
    expect(page.text).toContain('<legend>Retention</legend>');
    expect(page.text).toMatch(/<input\s+id="other_branch_days"\s+name="other_branch_days"\s+value="30"/);
    const site = (await h.request<Site>('GET', `/api/v1/sites/${s.siteId}`, { key: s.key })).body;
    const form = {
      _csrf: ConsoleClient.csrfOf(page.text),
      name: site.name ?? '',
      base_branch: site.base_branch,
      repository: site.repository ?? '',
      fail_on_critical: 'on',
      new_only: 'on',
      base_branch_days: '365',
      other_branch_days: '14',
      deploy_days: '365',
    };
    const bad = await c.post(`/sites/${s.siteId}/settings`, { ...form, other_branch_days: '0' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Other branch days must be a whole number of days from 1 to 36500');
    expect((await c.post(`/sites/${s.siteId}/settings`, form)).status).toBe(303);
    const after = await h.request<Site>('GET', `/api/v1/sites/${s.siteId}`, { key: s.key });
    expect(after.body.retention).toEqual({ base_branch_days: 365, other_branch_days: 14, deploy_days: 365 });
    expect((await c.get(`/sites/${s.siteId}`)).text).toContain('other scans 14 days');
  });

  test('saving the settings form keeps every gate and pull request setting the API set', async () => {
    const site = 'settings-kept';
    const scan = await h.request('POST', '/api/v1/scans', {
      key: s.key,
      body: {
        siteId: site,
        url: 'https://shop.example/',
        sha: 'a'.repeat(40),
        pages: [{ url: 'https://shop.example/', issues: [] }],
      },
    });
    expect(scan.status).toBe(201);
    const gate = {
      fail_on_critical: false,
      fail_on_serious: true,
      new_only: false,
      include_incomplete: true,
      engine_upgrade: 'fail',
      max_critical: 0,
      max_serious: 2,
      max_moderate: 5,
      max_minor: 9,
      max_total: 20,
    };
    const patch = { gate, pr_comment: false, merge_group_scans: true };
    expect((await h.request('PATCH', `/api/v1/sites/${site}`, { key: s.key, body: patch })).status).toBe(200);
    const c = new ConsoleClient(h.url);
    await c.signIn(s.key);
    const page = (await c.get(`/sites/${site}`)).text;
    // The form as a browser would send it: every named input's value, checked boxes only, the selected option.
    const form: Record<string, string> = {};
    for (const m of page.matchAll(/<input\s([^>]*)>/g)) {
      const name = /name="([^"]+)"/.exec(m[1])?.[1];
      if (!name || (/type="checkbox"/.test(m[1]) && !/\schecked\b/.test(m[1]))) continue;
      form[name] = /type="checkbox"/.test(m[1]) ? 'on' : (/value="([^"]*)"/.exec(m[1])?.[1] ?? '');
    }
    form.engine_upgrade = /<option value="(\w+)" selected/.exec(page)?.[1] ?? '';
    form.other_branch_days = '21';
    expect((await c.post(`/sites/${site}/settings`, form)).status).toBe(303);
    const after = (await h.request<Site>('GET', `/api/v1/sites/${site}`, { key: s.key })).body;
    expect(after.gate).toEqual(gate);
    expect(after).toMatchObject({ pr_comment: false, merge_group_scans: true });
    expect(after.retention.other_branch_days).toBe(21);
    const bad = await c.post(`/sites/${site}/settings`, { ...form, engine_upgrade: 'ignore' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id="engine_upgrade-error"');
  });

  test('revoking a key ends its sessions; signing out ends one', async () => {
    const key = await h.createKey({ org: 'acme', scopes: ['read'] });
    const c = new ConsoleClient(h.url);
    await c.signIn(key);
    expect((await c.get('/')).status).toBe(200);
    const me = await h.request<KeyInfo>('GET', '/api/v1/keys/me', { key });
    expect((await h.request('DELETE', `/api/v1/keys/${me.body.id}`, { admin: true })).status).toBe(204);
    expect((await c.get('/')).status).toBe(303);
    const left = await h.db('console_sessions').where({ key_id: me.body.id }).count({ n: '*' });
    expect(Number(left[0].n)).toBe(0);

    const d = new ConsoleClient(h.url);
    await d.signIn(s.key);
    const page = await d.get('/');
    const out = await d.post('/sign-out', { _csrf: ConsoleClient.csrfOf(page.text) });
    expect(out).toMatchObject({ status: 303, location: '/sign-in?signed_out=1' });
    expect(d.cookie('a11y_session')).toBeUndefined();
    expect((await d.get('/')).status).toBe(303);
  });

  test('GET /api/v1/deploys lists the gate history newest first; the trend follows the base branch', async () => {
    const list = await h.request<DeployList>('GET', `/api/v1/deploys?siteId=${s.siteId}&limit=1`, {
      key: s.key,
    });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ id: s.deployId, status: 'failed' })]);
    const other = await h.request<DeployList>('GET', '/api/v1/deploys', { key: s.otherKey });
    expect(other.body.data.map((d) => d.id)).toEqual([s.otherDeployId]);
    const trend = await h.request<SiteTrend>('GET', `/api/v1/sites/${s.siteId}/trend`, { key: s.key });
    expect(trend.status).toBe(200);
    expect(trend.body.points.map((p) => p.scan_id)).toEqual(s.baseScanIds);
    expect(trend.body.points.map((p) => p.issues)).toEqual([5, 4, 3, 2]);
    expect((await h.request('GET', `/api/v1/sites/${s.siteId}/trend`, { key: s.otherKey })).status).toBe(404);
  });

  test('the scan page walks every issue once, grouped by rule, across screens and with filters', async () => {
    const rules = ['aria-label', 'color-contrast', 'image-alt'];
    const impacts = [null, 'critical', 'minor', 'serious'];
    const pages = [0, 1, 2].map((p) => ({
      url: `https://walk.example/${p}`,
      issues: Array.from({ length: 45 }, (_, k) => ({
        rule: rules[(p + k) % 3],
        ...(impacts[k % 4] ? { impact: impacts[k % 4] } : {}),
        selector: `#p${p}-e${k}`,
      })),
    }));
    const created = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: s.key,
      body: { siteId: s.siteId, url: 'https://walk.example/', pages },
    });
    const c = new ConsoleClient(h.url);
    await c.signIn(s.key);
    const walk = async (query: string) => {
      const seen: string[] = [];
      let path: string | undefined = `/scans/${created.body.id}${query}`;
      while (path) {
        const page = await c.get(path);
        expect(page.status).toBe(200);
        seen.push(...[...page.text.matchAll(/<dt>Element<\/dt><dd><code>([^<]+)<\/code>/g)].map((m) => m[1]));
        const next = /<a href="([^"]+)">Next 50 issues<\/a>/.exec(page.text)?.[1];
        path = next ? `/scans/${created.body.id}${next.replace(/&amp;/g, '&')}` : undefined;
      }
      return seen;
    };
    const all = await walk('');
    expect(all).toHaveLength(135);
    expect(new Set(all).size).toBe(135);
    const minorOnPage2 = await walk('?impact=minor&page=2');
    expect(minorOnPage2.sort()).toEqual(
      pages[1].issues
        .filter((i) => i.impact === 'minor')
        .map((i) => i.selector)
        .sort(),
    );
    expect(await walk('?impact=unknown')).toHaveLength(36);
  });

  test('the stylesheet is a file with long caching', async () => {
    const page = await new ConsoleClient(h.url).get('/sign-in');
    const href = /<link rel="stylesheet" href="([^"]+)"/.exec(page.text)![1];
    const css = await fetch(h.url + href);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});

describe.each(dbKinds)('failed sign-ins and failed API authentications share one limit (%s)', (db) => {
  const h = useHarness({ db, env: { AUTH_FAILURES_PER_MINUTE: '3' } });
  afterEach(() => jest.useRealTimers());

  test('three wrong keys in the form use up the address’s failures: the API then answers 429', async () => {
    // The windows are whole minutes: the clock stands still at the start of one.
    controlClock(Math.ceil(Date.now() / 60_000) * 60_000 + 1_000);
    const guess = () => `a11y_${randomBytes(6).toString('hex')}_${randomBytes(24).toString('hex')}`;
    const c = new ConsoleClient(h.url);
    for (let i = 0; i < 3; i++) {
      expect((await c.submitSignIn(guess())).status).toBe(401);
    }
    const api = await h.request<Problem>('GET', '/api/v1/keys/me', { key: guess() });
    expect([api.status, api.body.code]).toEqual([429, 'rate_limited']);
    const limited = await c.submitSignIn(guess());
    expect(limited.status).toBe(429);
    expect(limited.text).toContain('Too many failed attempts');
    // A valid key is never refused by the failures of others at the same address.
    const key = await h.createKey({ org: 'acme', scopes: ['read'] });
    expect(await c.signIn(key)).toBe('/');
  });
});
