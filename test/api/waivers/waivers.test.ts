import type { Problem, Waiver, WaiverList } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { eventPayloads } from '../../helpers/outbox.js';

const DAY = 86_400_000;
const inDays = (d: number) => new Date(Date.now() + d * DAY).toISOString();

/** The stored columns these tests read or write: an outbox row (and its payload's event), a waiver row. */
interface WaiverRow {
  id: string;
  expires_at: string | null;
}

describe.each(dbKinds)('waivers (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });

  beforeAll(async () => {
    for (const siteId of ['shop-web', 'docs']) {
      const res = await h.request('POST', '/api/v1/scans', {
        key: h.key,
        body: { siteId, url: 'https://shop.example', sha: 'a'.repeat(40), branch: 'main', pages: [] },
      });
      expect(res.status).toBe(201);
    }
  });

  // A created waiver, or the problem of a refused one (`create<Problem>(…)`).
  const create = <T = Waiver>(body: Record<string, unknown>, k = h.key) =>
    h.request<T>('POST', '/api/v1/waivers', {
      key: k,
      body: {
        siteId: 'shop-web',
        rule: 'color-contrast',
        reason: 'brand colours, redesign in Q1',
        expires_at: inDays(30),
        ...body,
      },
    });

  test('create, read, and the waiver.created event in the outbox', async () => {
    const res = await create({ selector: '#promo > .cta', url_pattern: '/products/**' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      siteId: 'shop-web',
      rule: 'color-contrast',
      selector: '#promo > .cta',
      url_pattern: '/products/**',
      fingerprint: null,
      reason: 'brand colours, redesign in Q1',
      // The accessibility statement's category: without one, the waiver is an issue not fixed yet.
      reason_category: 'non-compliance',
      status: 'active',
      active: true,
      revoked_at: null,
      created_by: expect.stringMatching(/^key_/) as unknown,
    });
    expect(res.body.id).toMatch(/^wvr_/);
    expect(res.headers.get('location')).toBe(`/api/v1/waivers/${res.body.id}`);
    const got = await h.request<Waiver>('GET', `/api/v1/waivers/${res.body.id}`, { key: h.key });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    const events = await eventPayloads(h.db, 'waiver.created', 'acme');
    expect(events.map((e) => e.data.id)).toContain(res.body.id);
  });

  test('validation: reason required, expires_at in the future and at most 365 days away', async () => {
    const before = await h.db('waivers').count({ n: '*' }).first();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ reason: undefined }, '#/reason'],
      [{ reason: '   ' }, '#/reason'],
      [{ expires_at: undefined }, '#/expires_at'],
      [{ expires_at: new Date(Date.now() - 60_000).toISOString() }, '#/expires_at'],
      [{ expires_at: inDays(366) }, '#/expires_at'],
      [{ expires_at: 'next tuesday' }, '#/expires_at'],
      [{ rule: '' }, '#/rule'],
      [{ siteId: 'Bad Site' }, '#/siteId'],
      [{ fingerprint: 'not a fingerprint!' }, '#/fingerprint'],
      // Scans show 64 hex digits: a shortened copy could never match, a longer one overflowed the column.
      [{ fingerprint: 'abcdef12' }, '#/fingerprint'],
      [{ fingerprint: 'a'.repeat(80) }, '#/fingerprint'],
      // PostgreSQL text cannot hold U+0000: each of these answered 500 there.
      [{ rule: 'color\u0000contrast' }, '#/rule'],
      [{ selector: '#a\u0000b' }, '#/selector'],
      [{ url_pattern: '/a\u0000' }, '#/url_pattern'],
      [{ reason: 'why\u0000' }, '#/reason'],
      [{ colour: 'red' }, '#'],
      [{ reason_category: 'too-expensive' }, '#/reason_category'],
    ];
    for (const [body, pointer] of cases) {
      const res = await create<Problem>(body);
      expect(res.status).toBe(422);
      expect(res.body.errors?.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
    expect(await h.db('waivers').count({ n: '*' }).first()).toEqual(before);
    // 365 days is allowed.
    expect((await create({ expires_at: inDays(364.9) })).status).toBe(201);
  });

  test('a reason category is stored as given; rows from before categories read as non-compliance', async () => {
    const burden = await create({ reason_category: 'disproportionate-burden' });
    expect(burden.body.reason_category).toBe('disproportionate-burden');
    // A row written without the column, as every waiver made before it was, gets the migration's default.
    const rest = burden.body;
    await h.db('waivers').insert({
      id: 'wvr_fromBeforeCategories0',
      org: 'acme',
      site_id: rest.siteId,
      rule: rest.rule,
      reason: 'an older waiver',
      expires_at: rest.expires_at,
      created_at: rest.created_at,
    });
    const old = await h.request<Waiver>('GET', '/api/v1/waivers/wvr_fromBeforeCategories0', { key: h.key });
    expect(old.body.reason_category).toBe('non-compliance');
  });

  test('revoke keeps the record, is idempotent, and writes waiver.revoked once', async () => {
    const w = (await create({})).body;
    const first = await h.request<Waiver>('DELETE', `/api/v1/waivers/${w.id}`, { key: h.key });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: w.id, status: 'revoked', active: false });
    expect(first.body.revoked_at).toEqual(expect.any(String));
    const second = await h.request<Waiver>('DELETE', `/api/v1/waivers/${w.id}`, { key: h.key });
    expect(second.status).toBe(200);
    expect(second.body.revoked_at).toBe(first.body.revoked_at);
    expect((await h.request<Waiver>('GET', `/api/v1/waivers/${w.id}`, { key: h.key })).body.status).toBe(
      'revoked',
    );
    const events = await eventPayloads(h.db, 'waiver.revoked', 'acme');
    expect(events.filter((e) => e.data.id === w.id)).toHaveLength(1);
  });

  test('list filters by siteId and active, newest first, paginated', async () => {
    const k = await h.createKey({ org: 'listing' });
    for (const siteId of ['alpha', 'beta']) {
      await h.request('POST', '/api/v1/scans', {
        key: k,
        body: { siteId, url: 'https://x.example', sha: 'b'.repeat(40), branch: 'main', pages: [] },
      });
    }
    // Newest first is by created_at (milliseconds): keep the four creations in distinct milliseconds.
    const tick = () => new Promise((r) => setTimeout(r, 3));
    const a1 = (await create({ siteId: 'alpha' }, k)).body;
    await tick();
    const a2 = (await create({ siteId: 'alpha' }, k)).body;
    await tick();
    const b1 = (await create({ siteId: 'beta' }, k)).body;
    await tick();
    const expired = (await create({ siteId: 'alpha' }, k)).body;
    await h
      .db<WaiverRow>('waivers')
      .where({ id: expired.id })
      .update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    await h.request('DELETE', `/api/v1/waivers/${a2.id}`, { key: k });

    const ids = async (q: string) => {
      const res = await h.request<WaiverList>('GET', `/api/v1/waivers${q}`, { key: k });
      expect(res.status).toBe(200);
      return res.body.data.map((w: { id: string }) => w.id);
    };
    expect(await ids('')).toEqual([expired.id, b1.id, a2.id, a1.id]);
    expect(await ids('?siteId=alpha')).toEqual([expired.id, a2.id, a1.id]);
    expect(await ids('?siteId=alpha&active=true')).toEqual([a1.id]);
    expect(await ids('?active=false')).toEqual([expired.id, a2.id]);
    expect((await h.request<Waiver>('GET', `/api/v1/waivers/${expired.id}`, { key: k })).body.status).toBe(
      'expired',
    );

    const page1 = await h.request<WaiverList>('GET', '/api/v1/waivers?limit=3', { key: k });
    expect(page1.body.data).toHaveLength(3);
    expect(page1.headers.get('link')).toContain('rel="next"');
    const page2 = await h.request<WaiverList>(
      'GET',
      `/api/v1/waivers?limit=3&cursor=${page1.body.next_cursor}`,
      {
        key: k,
      },
    );
    expect(page2.body.data.map((w: { id: string }) => w.id)).toEqual([a1.id]);
    expect(page2.body.next_cursor).toBeNull();

    expect((await h.request('GET', '/api/v1/waivers?active=maybe', { key: k })).status).toBe(422);
    // A forged cursor holding U+0000 is refused like any other (it answered 500 on PostgreSQL).
    const forged = Buffer.from(JSON.stringify(['\u0000', 'wvr_x'])).toString('base64url');
    const bad = await h.request<Problem>('GET', `/api/v1/waivers?cursor=${forged}`, { key: k });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ pointer: '#/query/cursor' })]);
  });

  test("another org's waivers and sites answer 404", async () => {
    const other = await h.createKey({ org: 'other' });
    const w = (await create({})).body;
    expect((await h.request('GET', `/api/v1/waivers/${w.id}`, { key: other })).status).toBe(404);
    expect((await h.request('DELETE', `/api/v1/waivers/${w.id}`, { key: other })).status).toBe(404);
    expect((await h.request<Waiver>('GET', `/api/v1/waivers/${w.id}`, { key: h.key })).body.status).toBe(
      'active',
    );
    const theirs = await h.request<WaiverList>('GET', '/api/v1/waivers', { key: other });
    expect(theirs.body.data).toEqual([]);
    expect((await create({}, other)).status).toBe(404);
    expect((await create({ siteId: 'never-scanned' })).status).toBe(404);
    // An id no waiver can have is a 404 on both databases (PostgreSQL refuses U+0000 in a query).
    for (const method of ['GET', 'DELETE']) {
      const res = await h.request<Problem>(method, '/api/v1/waivers/wvr_%00', { key: h.key });
      expect([method, res.status, res.body.code]).toEqual([method, 404, 'not_found']);
    }
  });

  test('scopes: manage creates and revokes; read or manage may list and read', async () => {
    const reader = await h.createKey({ org: 'acme', scopes: ['read'] });
    const ci = await h.createKey({ org: 'acme', scopes: ['ingest', 'gate'] });
    const manager = await h.createKey({ org: 'acme', scopes: ['manage'] });
    expect((await create({}, reader)).status).toBe(403);
    expect((await create({}, ci)).status).toBe(403);
    const w = await create({}, manager);
    expect(w.status).toBe(201);
    expect((await h.request('GET', `/api/v1/waivers/${w.body.id}`, { key: reader })).status).toBe(200);
    expect((await h.request('GET', `/api/v1/waivers/${w.body.id}`, { key: manager })).status).toBe(200);
    expect((await h.request('GET', '/api/v1/waivers', { key: manager })).status).toBe(200);
    expect((await h.request('GET', '/api/v1/waivers', { key: ci })).status).toBe(403);
    expect((await h.request('DELETE', `/api/v1/waivers/${w.body.id}`, { key: reader })).status).toBe(403);
  });
});
