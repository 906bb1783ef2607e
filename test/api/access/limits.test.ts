import type { OpenScan, Problem, ScanPartAccepted, VpatReport } from '../../helpers/api-types.js';
import { dbKinds, useHarness, type Harness } from '../../helpers/harness.js';
import { ConsoleClient } from '../../console/client.js';

/**
 * Every per-org limit at its value and one past it, with low values configured so the test stays small:
 * the last allowed one is stored, the next is refused with a problem naming the limit and its value,
 * nothing of it is stored, and /metrics counts the refusal under the limit's name.
 */

const LIMITS = {
  MAX_PAGES_PER_REQUEST: '3',
  MAX_PAGES_PER_SCAN: '5',
  MAX_ISSUES_PER_REQUEST: '6',
  MAX_ISSUES_PER_SCAN: '8',
  MAX_OPEN_SCANS_PER_ORG: '2',
  MAX_KEYS_PER_ORG: '3',
  MAX_WEBHOOKS_PER_ORG: '2',
  MAX_WAIVERS_PER_ORG: '2',
  MAX_SITES_PER_ORG: '3',
  MAX_SESSIONS_PER_KEY: '2',
  MAX_VERSIONS_PER_REPORT: '2',
  MAX_REVIEW_REQUEST_KB: '1',
  WEBHOOK_PINGS_PER_MINUTE: '3',
  WEBHOOK_ALLOW_PRIVATE: 'true',
};

async function count(h: Harness, table: string, where: Record<string, string>) {
  return Number((await h.db(table).where(where).count({ n: '*' }))[0].n);
}

const page = (n: number, issues = 1) => ({
  url: `/p/${n}`,
  issues: Array.from({ length: issues }, (_, i) => ({ rule: 'image-alt', selector: `#e${n}-${i}` })),
});

function expectRefusal(res: { status: number; body: unknown }, status: number, limit: string, value: number) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ limit, limit_value: value });
  expect((res.body as Problem).detail).toContain(limit);
}

describe.each(dbKinds)('limits per org, at and past each (%s)', (db) => {
  const h = useHarness({ db, org: 'lim', env: LIMITS });

  const post = <T>(path: string, body: unknown, key = h.key) => h.request<T>('POST', path, { key, body });
  const openScan = (siteId: string, pages: unknown[] = [], key = h.key) =>
    post<OpenScan>('/api/v1/scans', { url: 'https://lim.example/', siteId, complete: false, pages }, key);

  test('GET /api/v1 publishes every limit under its name, with the configured values', async () => {
    const info = await h.request<{ limits: Record<string, number> }>('GET', '/api/v1');
    expect(info.body.limits).toMatchObject({
      pages_per_request: 3,
      pages_per_scan: 5,
      issues_per_request: 6,
      issues_per_scan: 8,
      open_scans_per_org: 2,
      keys_per_org: 3,
      webhooks_per_org: 2,
      waivers_per_org: 2,
      sites_per_org: 3,
      sessions_per_key: 2,
      versions_per_report: 2,
      review_request_bytes: 1024,
      pings_per_minute_per_webhook: 3,
    });
    const doc = await h.request<{ info: { 'x-limits': Record<string, number> } }>(
      'GET',
      '/api/v1/openapi.json',
    );
    expect(doc.body.info['x-limits']).toEqual(info.body.limits);
  });

  test('pages_per_scan and issues_per_scan count every part: at the limit stored, one more refused', async () => {
    const scan = (await openScan('parts', [page(0), page(1), page(2)])).body;
    const at = await post<ScanPartAccepted>(`/api/v1/scans/${scan.id}/pages`, { pages: [page(3), page(4)] });
    expect(at.status).toBe(200);
    expect(at.body.pages_received).toBe(5);
    const past = await post<Problem>(`/api/v1/scans/${scan.id}/pages`, { pages: [page(5)] });
    expectRefusal(past, 413, 'pages_per_scan', 5);
    expect(await count(h, 'scan_pages', { scan_id: scan.id })).toBe(5);

    const many = (await openScan('parts', [page(0, 3), page(1, 3)])).body;
    const issuesAt = await post<ScanPartAccepted>(`/api/v1/scans/${many.id}/pages`, { pages: [page(2, 2)] });
    expect(issuesAt.body.issues_received).toBe(8);
    const issuesPast = await post<Problem>(`/api/v1/scans/${many.id}/pages`, { pages: [page(3, 1)] });
    expectRefusal(issuesPast, 413, 'issues_per_scan', 8);
    expect(await count(h, 'scan_issues', { scan_id: many.id })).toBe(8);
    for (const id of [scan.id, many.id]) await post(`/api/v1/scans/${id}/complete`, undefined);
  });

  test('pages_per_request and issues_per_request: a part at them passes, one more is refused', async () => {
    const scan = (await openScan('parts')).body;
    expect(
      (await post(`/api/v1/scans/${scan.id}/pages`, { pages: [page(0), page(1), page(2)] })).status,
    ).toBe(200);
    const past = await post<Problem>(`/api/v1/scans/${scan.id}/pages`, {
      pages: [page(3), page(4), page(5), page(6)],
    });
    expectRefusal(past, 413, 'pages_per_request', 3);
    const scan2 = (await openScan('parts')).body;
    expect((await post(`/api/v1/scans/${scan2.id}/pages`, { pages: [page(0, 6)] })).status).toBe(200);
    expectRefusal(
      await post(`/api/v1/scans/${scan2.id}/pages`, { pages: [page(1, 7)] }),
      413,
      'issues_per_request',
      6,
    );
    await post(`/api/v1/scans/${scan2.id}/complete`, undefined);
    await post(`/api/v1/scans/${scan.id}/complete`, undefined);
  });

  test('open_scans_per_org: two open scans, the third refused; completing one makes room', async () => {
    const first = await openScan('parts');
    const second = await openScan('parts');
    expect([first.status, second.status]).toEqual([201, 201]);
    const before = await count(h, 'scans', { org: 'lim' });
    expectRefusal(await openScan('parts'), 422, 'open_scans_per_org', 2);
    expect(await count(h, 'scans', { org: 'lim' })).toBe(before);
    // Another org has its own room.
    const other = await h.createKey({ org: 'lim-other' });
    expect((await openScan('parts', [], other)).status).toBe(201);
    await post(`/api/v1/scans/${first.body.id}/complete`, undefined);
    expect((await openScan('parts')).status).toBe(201);
  });

  test('sites_per_org: the third site is stored, the fourth refused, by a scan and by settings alike', async () => {
    const k = await h.createKey({ org: 'lim-sites' });
    for (const siteId of ['s1', 's2', 's3']) {
      expect(
        (await h.request('PATCH', `/api/v1/sites/${siteId}`, { key: k, body: { name: siteId } })).status,
      ).toBe(200);
    }
    expectRefusal(
      await h.request('PATCH', '/api/v1/sites/s4', { key: k, body: { name: 's4' } }),
      422,
      'sites_per_org',
      3,
    );
    const scan = await post(
      '/api/v1/scans',
      { url: 'https://lim.example/', siteId: 's5', pages: [page(0)] },
      k,
    );
    expectRefusal(scan, 422, 'sites_per_org', 3);
    expect(await count(h, 'sites', { org: 'lim-sites' })).toBe(3);
    expect(await count(h, 'scans', { org: 'lim-sites' })).toBe(0);
    // A scan of a site it already has is not a new site.
    const known = await post(
      '/api/v1/scans',
      { url: 'https://lim.example/', siteId: 's1', pages: [page(0)] },
      k,
    );
    expect(known.status).toBe(201);
  });

  test('keys_per_org: three keys not revoked, the fourth refused; revoking one makes room', async () => {
    const keys = [];
    for (let i = 0; i < 3; i++) {
      const res = await h.request<{ id: string }>('POST', '/api/v1/keys', {
        admin: true,
        body: { org: 'lim-keys', name: `k${i}` },
      });
      expect(res.status).toBe(201);
      keys.push(res.body.id);
    }
    const past = await h.request('POST', '/api/v1/keys', {
      admin: true,
      body: { org: 'lim-keys', name: 'k3' },
    });
    expectRefusal(past, 422, 'keys_per_org', 3);
    expect(await count(h, 'api_keys', { org: 'lim-keys' })).toBe(3);
    expect((await h.request('DELETE', `/api/v1/keys/${keys[0]}`, { admin: true })).status).toBe(204);
    const again = await h.request('POST', '/api/v1/keys', {
      admin: true,
      body: { org: 'lim-keys', name: 'k4' },
    });
    expect(again.status).toBe(201);
  });

  test('webhooks_per_org: the second subscription stored, the third refused', async () => {
    const k = await h.createKey({ org: 'lim-hooks' });
    const sub = (n: number) =>
      post('/api/v1/webhooks', { url: `http://127.0.0.1:9/h${n}`, events: ['scan.created'] }, k);
    expect([(await sub(0)).status, (await sub(1)).status]).toEqual([201, 201]);
    expectRefusal(await sub(2), 422, 'webhooks_per_org', 2);
    expect(await count(h, 'webhook_subscriptions', { org: 'lim-hooks' })).toBe(2);
  });

  test('pings_per_minute_per_webhook: three pings scheduled, the fourth is 429 with Retry-After; another webhook has its own', async () => {
    const k = await h.createKey({ org: 'lim-pings' });
    const sub = (n: number) =>
      post<{ id: string }>(
        '/api/v1/webhooks',
        { url: `http://127.0.0.1:9/p${n}`, events: ['scan.created'] },
        k,
      );
    const [a, b] = [(await sub(0)).body.id, (await sub(1)).body.id];
    const ping = (id: string) => post(`/api/v1/webhooks/${id}/ping`, undefined, k);
    for (let i = 0; i < 3; i++) expect((await ping(a)).status).toBe(202);
    const before = await count(h, 'webhook_deliveries', { subscription_id: a });
    const past = await h.request<Problem>('POST', `/api/v1/webhooks/${a}/ping`, { key: k });
    expectRefusal(past, 429, 'pings_per_minute_per_webhook', 3);
    expect(Number(past.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await count(h, 'webhook_deliveries', { subscription_id: a })).toBe(before);
    expect((await ping(b)).status).toBe(202);
  });

  test('waivers_per_org: the second waiver stored, the third refused', async () => {
    const k = await h.createKey({ org: 'lim-waivers' });
    await h.request('PATCH', '/api/v1/sites/w', { key: k, body: { name: 'w' } });
    const waive = (rule: string) =>
      post(
        '/api/v1/waivers',
        {
          siteId: 'w',
          rule,
          reason: 'accepted',
          expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        },
        k,
      );
    expect([(await waive('a')).status, (await waive('b')).status]).toEqual([201, 201]);
    expectRefusal(await waive('c'), 422, 'waivers_per_org', 2);
    expect(await count(h, 'waivers', { org: 'lim-waivers' })).toBe(2);
  });

  test('versions_per_report and review_request_bytes: a review at the limits stored, past them refused', async () => {
    const k = await h.createKey({ org: 'lim-vpat' });
    const scan = await post<{ id: string }>(
      '/api/v1/scans',
      { url: 'https://lim.example/', siteId: 'v', pages: [page(0)] },
      k,
    );
    const product = { name: 'Shop', version: '1' };
    const r1 = (
      await post<VpatReport>('/api/v1/vpat/generate', { siteId: 'v', scan_id: scan.body.id, product }, k)
    ).body;
    const decision = { criterion: '1.1.1', conformance: 'supports', remarks: 'ok' };
    // A body of 1024 bytes exactly is taken; 1025 is refused before it is parsed.
    const sized = (bytes: number) => {
      const body = { author: 'A', decisions: [{ ...decision, remarks: '' }] };
      const pad = bytes - JSON.stringify(body).length;
      body.decisions[0].remarks = 'r'.repeat(pad);
      return JSON.stringify(body);
    };
    const review = (id: string, raw: string) =>
      h.request<VpatReport>('POST', `/api/v1/vpat/${id}/review`, {
        key: k,
        raw,
        headers: { 'content-type': 'application/json' },
      });
    expectRefusal(await review(r1.id, sized(1025)), 413, 'review_request_bytes', 1024);
    const r2 = await review(r1.id, sized(1024));
    expect(r2.status).toBe(201);
    expect(r2.body.version).toBe(2);
    const before = await count(h, 'vpat_reports', { org: 'lim-vpat' });
    expectRefusal(await review(r2.body.id, sized(200)), 422, 'versions_per_report', 2);
    expect(await count(h, 'vpat_reports', { org: 'lim-vpat' })).toBe(before);
  });

  test('sessions_per_key: a third sign-in ends the oldest session, the newest two stay signed in', async () => {
    const k = await h.createKey({ org: 'lim-console' });
    const clients = [new ConsoleClient(h.url), new ConsoleClient(h.url), new ConsoleClient(h.url)];
    for (const c of clients) expect((await c.submitSignIn(k)).status).toBe(303);
    const at = async (c: ConsoleClient) => (await c.get('/')).status;
    expect(await at(clients[0])).toBe(303);
    expect([await at(clients[1]), await at(clients[2])]).toEqual([200, 200]);
  });

  test('sessions_per_key holds when twenty sign-ins with one key arrive at once', async () => {
    const k = await h.createKey({ org: 'lim-console-race' });
    const clients = Array.from({ length: 20 }, () => new ConsoleClient(h.url));
    const statuses = await Promise.all(clients.map(async (c) => (await c.submitSignIn(k)).status));
    expect(statuses).toEqual(Array(20).fill(303));
    expect(await count(h, 'console_sessions', { org: 'lim-console-race' })).toBe(2);
    const signedIn = await Promise.all(clients.map(async (c) => (await c.get('/')).status === 200));
    expect(signedIn.filter(Boolean)).toHaveLength(2);
  });

  test('keys_per_org counts rotation: a key in its grace period keeps its place, so chained rotations stop at the limit', async () => {
    const create = async (name: string) =>
      (
        await h.request<{ id: string }>('POST', '/api/v1/keys', {
          admin: true,
          body: { org: 'lim-rot', name },
        })
      ).body.id;
    const rotate = (id: string, grace: number) =>
      h.request<{ id: string }>('POST', `/api/v1/keys/${id}/rotate`, {
        admin: true,
        body: { grace_period_seconds: grace },
      });
    const [a] = [await create('a'), await create('b')];
    const first = await rotate(a, 604800);
    expect(first.status).toBe(201);
    const chained = await rotate(first.body.id, 604800);
    expectRefusal(chained, 422, 'keys_per_org', 3);
    expect(await count(h, 'api_keys', { org: 'lim-rot' })).toBe(3);
    expect(
      (
        await h.request<{ replaced_by: string | null }>('GET', `/api/v1/keys/${first.body.id}`, {
          admin: true,
        })
      ).body.replaced_by,
    ).toBeNull();
    // Without a grace period the old key stops at once: a swap, which needs no free place.
    const swap = await rotate(first.body.id, 0);
    expect(swap.status).toBe(201);
    expectRefusal(await rotate(swap.body.id, 604800), 422, 'keys_per_org', 3);
    // Ending the first grace period early (revoking the old key) frees its place.
    expect((await h.request('DELETE', `/api/v1/keys/${a}`, { admin: true })).status).toBe(204);
    expect((await rotate(swap.body.id, 604800)).status).toBe(201);
    expectRefusal(
      await h.request('POST', '/api/v1/keys', { admin: true, body: { org: 'lim-rot', name: 'c' } }),
      422,
      'keys_per_org',
      3,
    );
  });

  test('refusals are counted by limit in /metrics', async () => {
    const res = await fetch(`${h.url}/metrics`, { headers: { 'x-admin-token': h.adminToken } });
    const text = await res.text();
    for (const limit of ['pages_per_scan', 'issues_per_scan', 'open_scans_per_org', 'keys_per_org']) {
      expect(text).toMatch(new RegExp(`a11y_gate_limit_refusals_total\\{limit="${limit}"\\} [1-9]`));
    }
  });
});
