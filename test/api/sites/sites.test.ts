import { getSite } from '../../../api/store/sites/sites.js';
import type { Problem, Site, SiteList } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';

describe.each(dbKinds)('sites (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });

  const scan = (siteId: string, k = h.key) =>
    h.request('POST', '/api/v1/scans', {
      key: k,
      body: { url: 'https://shop.example.com/', siteId, pages: [] },
    });

  test('a scan creates its site with default settings', async () => {
    expect((await scan('web')).status).toBe(201);
    expect((await scan('web')).status).toBe(201);
    const res = await h.request<Site>('GET', '/api/v1/sites/web', { key: h.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      siteId: 'web',
      name: null,
      url: null,
      repository: null,
      base_branch: 'main',
      gate: null,
      retention: { base_branch_days: 400, other_branch_days: 30, deploy_days: 400 },
      pr_comment: true,
      merge_group_scans: false,
      claims: 'report',
      created_at: expect.any(String) as unknown,
      updated_at: res.body.created_at,
    });
  });

  test('PATCH changes settings; absent fields stay, null clears; getSite reads them', async () => {
    await scan('patched');
    const patched = await h.request<Site>('PATCH', '/api/v1/sites/patched', {
      key: h.key,
      body: {
        name: 'Shop',
        url: 'https://shop.example.com',
        repository: 'acme/shop-web',
        base_branch: 'develop',
        gate: { fail_on_serious: true, max_total: 10, max_minor: null },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      siteId: 'patched',
      name: 'Shop',
      repository: 'acme/shop-web',
      base_branch: 'develop',
      gate: { fail_on_serious: true, max_total: 10, max_minor: null },
    });
    expect(patched.body.updated_at >= patched.body.created_at).toBe(true);

    const again = await h.request<Site>('PATCH', '/api/v1/sites/patched', {
      key: h.key,
      body: { name: null, base_branch: null, pr_comment: false, merge_group_scans: true },
    });
    expect(again.body).toMatchObject({
      pr_comment: false,
      merge_group_scans: true,
      name: null,
      url: 'https://shop.example.com',
      repository: 'acme/shop-web',
      base_branch: 'main',
      gate: { fail_on_serious: true, max_total: 10 },
    });

    const record = await getSite(h.db, 'acme', 'patched');
    expect(record).toEqual({
      siteId: 'patched',
      name: null,
      url: 'https://shop.example.com',
      repository: 'acme/shop-web',
      baseBranch: 'main',
      gate: { fail_on_serious: true, max_total: 10, max_minor: null },
      retention: { baseBranchDays: 400, otherBranchDays: 30, deployDays: 400 },
      prComment: false,
      mergeGroupScans: true,
      claims: 'report',
      createdAt: expect.any(String) as unknown,
      updatedAt: expect.any(String) as unknown,
    });
    expect(await getSite(h.db, 'other', 'patched')).toBeUndefined();

    const cleared = await h.request<Site>('PATCH', '/api/v1/sites/patched', {
      key: h.key,
      body: { gate: null },
    });
    expect(cleared.body.gate).toBeNull();
  });

  test('PATCH retention changes the periods given and keeps the others', async () => {
    await scan('kept');
    const res = await h.request<Site>('PATCH', '/api/v1/sites/kept', {
      key: h.key,
      body: { retention: { other_branch_days: 7, deploy_days: 90 } },
    });
    expect(res.status).toBe(200);
    expect(res.body.retention).toEqual({ base_branch_days: 400, other_branch_days: 7, deploy_days: 90 });
    const again = await h.request('PATCH', '/api/v1/sites/kept', {
      key: h.key,
      body: { retention: { base_branch_days: 800 } },
    });
    expect((await h.request<Site>('GET', '/api/v1/sites/kept', { key: h.key })).body.retention).toEqual({
      base_branch_days: 800,
      other_branch_days: 7,
      deploy_days: 90,
    });
    expect(again.status).toBe(200);
  });

  test('a base_branch given as a git ref is stored as the branch name scans carry', async () => {
    const res = await h.request<Site>('PATCH', '/api/v1/sites/ref-site', {
      key: h.key,
      body: { base_branch: 'refs/heads/develop' },
    });
    expect(res.body.base_branch).toBe('develop');
  });

  test('a forged list cursor with U+0000 is 422, not a PostgreSQL error', async () => {
    const forged = Buffer.from(JSON.stringify(['a\u0000'])).toString('base64url');
    const res = await h.request<Problem>('GET', `/api/v1/sites?cursor=${forged}`, { key: h.key });
    expect(res.status).toBe(422);
    expect(res.body.errors![0].pointer).toBe('#/query/cursor');
  });

  test('PATCH may configure a site before its first scan', async () => {
    const res = await h.request<Site>('PATCH', '/api/v1/sites/not-scanned-yet', {
      key: h.key,
      body: { base_branch: 'trunk' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ siteId: 'not-scanned-yet', base_branch: 'trunk' });
    await scan('not-scanned-yet');
    expect(
      (await h.request<Site>('GET', '/api/v1/sites/not-scanned-yet', { key: h.key })).body.base_branch,
    ).toBe('trunk');
  });

  test('bad settings are 422 with pointers and change nothing', async () => {
    await scan('strict');
    const before = await h.request<Site>('GET', '/api/v1/sites/strict', { key: h.key });
    for (const [body, pointer] of [
      [{ repository: 'not a repo' }, '#/repository'],
      [{ url: 'ftp://x' }, '#/url'],
      [{ base_branch: 'has space' }, '#/base_branch'],
      [{ base_branch: '' }, '#/base_branch'],
      [{ gate: { max_total: -1 } }, '#/gate/max_total'],
      [{ gate: { fail_on_critical: 'yes' } }, '#/gate/fail_on_critical'],
      [{ gate: { unknown_threshold: 1 } }, '#/gate'],
      [{ base_brach: 'typo' }, '#'],
      // PostgreSQL text cannot hold U+0000: refused rather than a 500.
      [{ name: 'Shop\u0000' }, '#/name'],
      [{ base_branch: 'ma\u0000in' }, '#/base_branch'],
      [{ url: 'https://shop.example.com/\u0000' }, '#/url'],
      [{ retention: { deploy_days: 0 } }, '#/retention/deploy_days'],
      [{ retention: { other_branch_days: 1.5 } }, '#/retention/other_branch_days'],
      [{ retention: { base_branch_days: '400' } }, '#/retention/base_branch_days'],
      [{ retention: { reports_days: 10 } }, '#/retention'],
    ] as const) {
      const res = await h.request<Problem>('PATCH', '/api/v1/sites/strict', { key: h.key, body });
      expect(res.status).toBe(422);
      expect(res.body.errors!.map((e) => e.pointer)).toContain(pointer);
    }
    expect((await h.request<Site>('GET', '/api/v1/sites/strict', { key: h.key })).body).toEqual(before.body);
  });

  test('list is ordered by siteId and cursor-paginated; other orgs see nothing', async () => {
    const other = await h.createKey({ org: 'listing' });
    for (const id of ['c-site', 'a-site', 'b-site', 'd-site']) await scan(id, other);
    const seen: string[] = [];
    let path = '/api/v1/sites?limit=3';
    for (;;) {
      const page = await h.request<SiteList>('GET', path, { key: other });
      seen.push(...page.body.data.map((s) => s.siteId));
      if (!page.body.next_cursor) break;
      path = `/api/v1/sites?limit=3&cursor=${page.body.next_cursor}`;
    }
    expect(seen).toEqual(['a-site', 'b-site', 'c-site', 'd-site']);
    const mine = await h.request<SiteList>('GET', '/api/v1/sites?limit=100', { key: h.key });
    expect(mine.body.data.map((s) => s.siteId)).not.toContain('a-site');
    expect((await h.request('GET', '/api/v1/sites/a-site', { key: h.key })).status).toBe(404);
    expect(
      (await h.request('PATCH', '/api/v1/sites/a-site', { key: other, body: { name: 'x' } })).status,
    ).toBe(200);
    expect((await h.request('GET', '/api/v1/sites/a-site', { key: h.key })).status).toBe(404);
  });

  test('scopes: reading needs read, PATCH needs manage; unknown or malformed ids are 404', async () => {
    await scan('scoped');
    const ci = await h.createKey({ org: 'acme', scopes: ['ingest', 'gate'] });
    const reader = await h.createKey({ org: 'acme', scopes: ['read'] });
    expect((await h.request('GET', '/api/v1/sites', { key: ci })).status).toBe(403);
    expect((await h.request('GET', '/api/v1/sites/scoped', { key: ci })).status).toBe(403);
    expect((await h.request('GET', '/api/v1/sites/scoped', { key: reader })).status).toBe(200);
    expect(
      (await h.request('PATCH', '/api/v1/sites/scoped', { key: reader, body: { name: 'x' } })).status,
    ).toBe(403);
    expect((await h.request('GET', '/api/v1/sites/nope', { key: h.key })).status).toBe(404);
    expect((await h.request('GET', '/api/v1/sites/Not_A_Slug', { key: h.key })).status).toBe(404);
  });
});
