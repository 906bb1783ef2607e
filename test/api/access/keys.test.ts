import { jest } from '@jest/globals';
import { controlClock } from '../../helpers/clock.js';
import type { CreatedKey, KeyInfo, KeyList, Problem } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';

/** The columns of a stored key these tests read. */
interface KeyRow {
  id: string;
  secret_hash: string;
}

describe.each(dbKinds)('API keys and auth (%s)', (db) => {
  const h = useHarness({ db });

  test('admin creates a key shown once; the key describes itself', async () => {
    const created = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      admin: true,
      body: { name: 'ci', org: 'acme', scopes: ['ingest', 'gate'] },
    });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^a11y_[0-9A-Za-z]{12}_[0-9A-Za-z]{38}$/);
    expect(created.headers.get('location')).toBe(`/api/v1/keys/${created.body.id}`);
    const stored = await h.db<KeyRow>('api_keys').where({ id: created.body.id }).first();
    expect(stored?.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(created.body.key);

    const me = await h.request<KeyInfo>('GET', '/api/v1/keys/me', { key: created.body.key });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: created.body.id,
      org: 'acme',
      scopes: ['ingest', 'gate'],
      name: 'ci',
    });
    expect(me.body.prefix).toBe(created.body.key.slice(0, 17));
  });

  test('every kind of bad credential is 401 with WWW-Authenticate', async () => {
    const good = await h.createKey();
    const revoked = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      admin: true,
      body: { name: 'old' },
    });
    await h.request('DELETE', `/api/v1/keys/${revoked.body.id}`, { admin: true });
    const flipped = good.slice(0, 20) + (good[20] === 'a' ? 'b' : 'a') + good.slice(21);
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer' },
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer not-a-key' },
      { authorization: `Bearer ${flipped}` },
      { authorization: `Bearer ${revoked.body.key}` },
    ];
    for (const headers of cases) {
      const res = await h.request<Problem>('GET', '/api/v1/keys/me', { headers });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthorized');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });

  test('an expired key is refused from its expires_at on', async () => {
    const expiry = Date.now() + 60_000;
    const key = await h.createKey({ expires_at: new Date(expiry).toISOString() });
    expect((await h.request('GET', '/api/v1/keys/me', { key })).status).toBe(200);
    // Only Date is replaced: the clock jumps to the expiry instead of the test waiting for it.
    const clock = controlClock(expiry - 1);
    try {
      expect((await h.request('GET', '/api/v1/keys/me', { key })).status).toBe(200);
      clock.set(expiry);
      expect((await h.request('GET', '/api/v1/keys/me', { key })).status).toBe(401);
    } finally {
      jest.useRealTimers();
    }
  });

  test('revocation takes effect at once', async () => {
    const created = await h.request<CreatedKey>('POST', '/api/v1/keys', { admin: true, body: { name: 'x' } });
    const key = created.body.key;
    expect((await h.request('GET', '/api/v1/keys/me', { key })).status).toBe(200);
    expect((await h.request('DELETE', `/api/v1/keys/${created.body.id}`, { admin: true })).status).toBe(204);
    expect((await h.request('GET', '/api/v1/keys/me', { key })).status).toBe(401);
    expect((await h.request('DELETE', `/api/v1/keys/${created.body.id}`, { admin: true })).status).toBe(404);
  });

  test('key management refuses keys without the admin scope (403) and wrong tokens (401)', async () => {
    const key = await h.createKey();
    expect((await h.request('GET', '/api/v1/keys', { key })).status).toBe(403);
    const wrong = await h.request('GET', '/api/v1/keys', { headers: { 'x-admin-token': 'x'.repeat(40) } });
    expect(wrong.status).toBe(401);
  });

  test('admin lists keys with cursor pagination and a Link header', async () => {
    for (let i = 0; i < 3; i++) await h.createKey({ name: `page-${i}` });
    const first = await h.request<KeyList>('GET', '/api/v1/keys?limit=2', { admin: true });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = await h.request<KeyList>('GET', `/api/v1/keys?limit=2&cursor=${first.body.next_cursor}`, {
      admin: true,
    });
    const ids = new Set([...first.body.data, ...second.body.data].map((k: { id: string }) => k.id));
    expect(ids.size).toBe(4);
    const bad = await h.request<Problem>('GET', '/api/v1/keys?cursor=garbage', { admin: true });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.[0].pointer).toBe('#/query/cursor');
  });

  test('key creation validates its body with JSON pointers', async () => {
    const res = await h.request<Problem>('POST', '/api/v1/keys', {
      admin: true,
      body: { name: '', scopes: ['ingest', 'root'], expires_at: '2001-01-01T00:00:00Z' },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    const pointers = res.body.errors?.map((e: { pointer: string }) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['#/name', '#/scopes/1', '#/expires_at']));
    expect(await h.db('api_keys').where({ name: '' }).first()).toBeUndefined();
  });
});
