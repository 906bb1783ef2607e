import type { Problem, SiteTags, TagList } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';

describe.each(dbKinds)('site tags (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });
  let admin: string;
  let readOnly: string;
  let otherOrg: string;

  beforeAll(async () => {
    admin = await h.createKey({ org: 'acme', scopes: ['admin', 'read'] });
    readOnly = await h.createKey({ org: 'acme', scopes: ['read'] });
    otherOrg = await h.createKey({ org: 'globex', scopes: ['admin', 'read'] });
    for (const siteId of ['shop', 'blog', 'docs'])
      expect((await h.request('PATCH', `/api/v1/sites/${siteId}`, { key: h.key, body: {} })).status).toBe(
        200,
      );
  });

  test('an admin sets tags (trimmed, lower-cased, once each); anyone with read sees them per site and per tag', async () => {
    const set = await h.request<SiteTags>('PUT', '/api/v1/sites/shop/tags', {
      key: admin,
      body: { tags: [' Retail ', 'eu', 'retail'] },
    });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ siteId: 'shop', tags: ['eu', 'retail'] });
    await h.request('PUT', '/api/v1/sites/blog/tags', { key: admin, body: { tags: ['retail'] } });
    expect(
      (await h.request<SiteTags>('GET', '/api/v1/sites/blog/tags', { key: readOnly })).body.tags,
    ).toEqual(['retail']);
    expect((await h.request<TagList>('GET', '/api/v1/tags', { key: readOnly })).body.data).toEqual([
      { tag: 'eu', sites: ['shop'] },
      { tag: 'retail', sites: ['blog', 'shop'] },
    ]);
    const cleared = await h.request<SiteTags>('PUT', '/api/v1/sites/shop/tags', {
      key: admin,
      body: { tags: [] },
    });
    expect(cleared.body.tags).toEqual([]);
    expect((await h.request<TagList>('GET', '/api/v1/tags', { key: readOnly })).body.data).toEqual([
      { tag: 'retail', sites: ['blog'] },
    ]);
  });

  test('refusals store nothing: read scope, a bad tag, too many, an unknown site, another org', async () => {
    const before = (await h.request<SiteTags>('GET', '/api/v1/sites/blog/tags', { key: readOnly })).body.tags;
    const put = (key: string, body: unknown, site = 'blog') =>
      h.request<Problem>('PUT', `/api/v1/sites/${site}/tags`, { key, body });
    expect((await put(readOnly, { tags: ['x'] })).status).toBe(403);
    const bad = await put(admin, { tags: ['ok', 'no spaces'] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.[0]?.pointer).toBe('#/tags/1');
    expect((await put(admin, { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) })).status).toBe(422);
    expect((await put(admin, { tags: ['x'], extra: 1 })).status).toBe(422);
    expect((await put(admin, { tags: ['x'] }, 'nowhere')).status).toBe(404);
    expect((await put(otherOrg, { tags: ['x'] })).status).toBe(404);
    expect((await h.request('GET', '/api/v1/sites/blog/tags', { key: otherOrg })).status).toBe(404);
    expect((await h.request<TagList>('GET', '/api/v1/tags', { key: otherOrg })).body.data).toEqual([]);
    expect(
      (await h.request<SiteTags>('GET', '/api/v1/sites/blog/tags', { key: readOnly })).body.tags,
    ).toEqual(before);
  });

  test('deleting a site takes its tags with it', async () => {
    await h.request('PUT', '/api/v1/sites/docs/tags', { key: admin, body: { tags: ['gone'] } });
    expect((await h.request('DELETE', '/api/v1/sites/docs', { key: h.key })).status).toBe(204);
    expect(await h.db('site_tags').where({ org: 'acme', site_id: 'docs' })).toHaveLength(0);
  });
});
