import { jest } from '@jest/globals';
import { controlClock } from '../../helpers/clock.js';
import type { AdminKeyInfo, CreatedKey, Problem, RotatedKey } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { ConsoleClient } from '../../console/client.js';
import { sleep } from '../../helpers/wait.js';

const ALL = ['ingest', 'gate', 'read', 'manage', 'admin'];

describe.each(dbKinds)('key rotation, expiry and last use (%s)', (db) => {
  const h = useHarness({ db, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  let admin: string;

  beforeAll(async () => {
    admin = await h.createKey({ org: 'rot', scopes: ALL, name: 'rot admin' });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  const me = (key: string) => h.request('GET', '/api/v1/keys/me', { key }).then((r) => r.status);

  test('the old key works until the grace period ends and not after; the new one goes on', async () => {
    const clock = controlClock();
    const made = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      key: admin,
      body: { name: 'ci', scopes: ['ingest', 'read'] },
    });
    const start = clock.now();
    const rotated = await h.request<RotatedKey>('POST', `/api/v1/keys/${made.body.id}/rotate`, {
      key: admin,
      body: { grace_period_seconds: 3600 },
    });
    expect(rotated.status).toBe(201);
    expect(rotated.body.key).not.toBe(made.body.key);
    expect(rotated.body).toMatchObject({ org: 'rot', name: 'ci', scopes: ['ingest', 'read'] });
    expect(rotated.body.replaces).toEqual({
      id: made.body.id,
      expires_at: new Date(start + 3600_000).toISOString(),
    });
    expect(rotated.headers.get('location')).toBe(`/api/v1/keys/${rotated.body.id}`);
    const old = await h.request<AdminKeyInfo>('GET', `/api/v1/keys/${made.body.id}`, { key: admin });
    expect(old.body).toMatchObject({ replaced_by: rotated.body.id, revoked_at: null });

    expect([await me(made.body.key), await me(rotated.body.key)]).toEqual([200, 200]);
    clock.set(start + 3600_000 - 1000);
    expect([await me(made.body.key), await me(rotated.body.key)]).toEqual([200, 200]);
    clock.set(start + 3600_000);
    expect([await me(made.body.key), await me(rotated.body.key)]).toEqual([401, 200]);
    clock.set(start + 30 * 86400_000);
    expect(await me(made.body.key)).toBe(401);
  });

  test('the default grace period is 24 hours; more than 7 days is 422 and changes nothing', async () => {
    const clock = controlClock();
    const made = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      key: admin,
      body: { name: 'default grace' },
    });
    const id = made.body.id;
    for (const body of [
      { grace_period_seconds: 604801 },
      { grace_period_seconds: -1 },
      { grace_period_seconds: 1.5 },
      { grace_period_seconds: '3600' },
      { grace: 10 },
    ]) {
      const res = await h.request('POST', `/api/v1/keys/${id}/rotate`, { key: admin, body });
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 422]);
    }
    expect(await h.db('api_keys').where({ replaced_by: null, id }).first()).toBeDefined();
    expect(await h.db('api_keys').where({ name: 'default grace' }).count({ n: '*' })).toEqual([{ n: 1 }]);

    const start = clock.now();
    const rotated = await h.request<RotatedKey>('POST', `/api/v1/keys/${id}/rotate`, {
      key: admin,
      body: {},
    });
    expect(rotated.body.replaces.expires_at).toBe(new Date(start + 86400_000).toISOString());
    // A second rotation of the same key is a conflict: rotate its replacement instead.
    const again = await h.request<Problem>('POST', `/api/v1/keys/${id}/rotate`, { key: admin, body: {} });
    expect([again.status, again.body.code]).toEqual([409, 'conflict']);
    clock.set(start + 86400_000 - 1);
    expect(await me(made.body.key)).toBe(200);
    clock.set(start + 86400_000 + 1);
    expect(await me(made.body.key)).toBe(401);
  });

  test('seven days is accepted, and a grace period never outlives the old key’s own expiry', async () => {
    const clock = controlClock();
    const start = clock.now();
    const expiry = new Date(start + 3600_000).toISOString();
    const made = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      key: admin,
      body: { name: 'short-lived', expires_at: expiry },
    });
    const rotated = await h.request<RotatedKey>('POST', `/api/v1/keys/${made.body.id}/rotate`, {
      key: admin,
      body: { grace_period_seconds: 604800 },
    });
    expect(rotated.status).toBe(201);
    expect(rotated.body.replaces.expires_at).toBe(expiry);
    expect(rotated.body.expires_at).toBe(expiry);
  });

  test('expires_at is honoured for API requests and console sessions alike', async () => {
    const clock = controlClock();
    const start = clock.now();
    const made = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      key: admin,
      body: { name: 'expiring', scopes: ['read'], expires_at: new Date(start + 600_000).toISOString() },
    });
    const c = new ConsoleClient(h.url);
    expect(await c.signIn(made.body.key)).toBe('/');
    expect((await c.get('/')).status).toBe(200);
    clock.set(start + 600_000);
    expect(await me(made.body.key)).toBe(401);
    expect((await c.get('/')).status).toBe(303);
    const c2 = new ConsoleClient(h.url);
    const form = await c2.get('/sign-in');
    const res = await c2.post('/sign-in', {
      _csrf: ConsoleClient.csrfOf(form.text),
      key: made.body.key,
      next: '/',
    });
    expect(res.status).toBe(401);
  });

  test("a rotated key's console session lasts the grace period; a revoked key's sessions and requests fail at once", async () => {
    const clock = controlClock();
    const start = clock.now();
    const made = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      key: admin,
      body: { name: 'console', scopes: ['read'] },
    });
    const rotating = new ConsoleClient(h.url);
    await rotating.signIn(made.body.key);
    await h.request('POST', `/api/v1/keys/${made.body.id}/rotate`, {
      key: admin,
      body: { grace_period_seconds: 60 },
    });
    expect((await rotating.get('/')).status).toBe(200);
    clock.set(start + 61_000);
    expect((await rotating.get('/')).status).toBe(303);

    const other = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      key: admin,
      body: { name: 'revoked', scopes: ['read'] },
    });
    const c = new ConsoleClient(h.url);
    await c.signIn(other.body.key);
    expect((await c.get('/')).status).toBe(200);
    expect(await me(other.body.key)).toBe(200);
    expect((await h.request('DELETE', `/api/v1/keys/${other.body.id}`, { key: admin })).status).toBe(204);
    expect(await me(other.body.key)).toBe(401);
    expect((await c.get('/')).status).toBe(303);
    expect(await h.db('console_sessions').where({ key_id: other.body.id })).toHaveLength(0);
  });

  test('last_used_at is written at most once a minute per key, not once per request', async () => {
    const clock = controlClock();
    const made = await h.request<CreatedKey>('POST', '/api/v1/keys', { key: admin, body: { name: 'busy' } });
    const writes: string[] = [];
    const onQuery = (q: { sql: string }) => {
      if (/^update\s+["`]?api_keys["`]?\s/i.test(q.sql) && q.sql.includes('last_used_at')) writes.push(q.sql);
    };
    h.db.on('query', onQuery);
    try {
      const start = clock.now();
      for (let i = 0; i < 20; i++) {
        clock.set(start + i * 1000);
        expect(await me(made.body.key)).toBe(200);
      }
      await sleep(100); // the write of last_used_at does not hold up the answer
      expect(writes).toHaveLength(1);
      const first = await h.request<AdminKeyInfo>('GET', `/api/v1/keys/${made.body.id}`, { key: admin });
      expect(first.body.last_used_at).toBe(new Date(start).toISOString());
      clock.set(start + 61_000);
      await me(made.body.key);
      await me(made.body.key);
      await sleep(100); // the write of last_used_at does not hold up the answer
      expect(writes).toHaveLength(2);
      const second = await h.request<AdminKeyInfo>('GET', `/api/v1/keys/${made.body.id}`, { key: admin });
      expect(second.body.last_used_at).toBe(new Date(start + 61_000).toISOString());
    } finally {
      h.db.removeListener('query', onQuery);
    }
  });
});
