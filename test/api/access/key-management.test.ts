import type {
  AdminKeyInfo,
  CreatedKey,
  KeyInfo,
  KeyList,
  Problem,
  RotatedKey,
} from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import type { OutboxRow } from '../../helpers/outbox.js';

const ALL = ['ingest', 'gate', 'read', 'manage', 'admin'];

describe.each(dbKinds)('key management by org admins (%s)', (db) => {
  const h = useHarness({ db, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  let adminA: string;
  let adminB: string;
  let plainA: string;
  let keyOfA: { id: string; key: string };

  beforeAll(async () => {
    adminA = await h.createKey({ org: 'org-a', scopes: ALL, name: 'admin a' });
    adminB = await h.createKey({ org: 'org-b', scopes: ALL, name: 'admin b' });
    plainA = await h.createKey({ org: 'org-a', name: 'plain a' });
    const res = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      key: adminA,
      body: { name: 'ci of a' },
    });
    keyOfA = { id: res.body.id, key: res.body.key };
  });

  test('an org admin creates keys in its own org; naming another org is 403 and stores nothing', async () => {
    const res = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      key: adminA,
      body: { name: 'deployer', scopes: ['gate', 'admin'] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ org: 'org-a', scopes: ['gate', 'admin'], revoked_at: null });
    expect((await h.request<KeyInfo>('GET', '/api/v1/keys/me', { key: res.body.key })).body.org).toBe(
      'org-a',
    );
    const own = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      key: adminA,
      body: { name: 'x', org: 'org-a' },
    });
    expect(own.status).toBe(201);

    const before = await h.db('api_keys').count({ n: '*' });
    const other = await h.request<Problem>('POST', '/api/v1/keys', {
      key: adminA,
      body: { name: 'sneaky', org: 'org-b', scopes: ALL },
    });
    expect([other.status, other.body.code]).toEqual([403, 'forbidden']);
    expect(await h.db('api_keys').count({ n: '*' })).toEqual(before);
    expect(await h.db('api_keys').where({ name: 'sneaky' }).first()).toBeUndefined();
  });

  test('without org the admin token creates in `default` (the single-tenant default) and scopes default to all but admin', async () => {
    const res = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      admin: true,
      body: { name: 'single tenant' },
    });
    expect(res.status).toBe(201);
    expect(res.body.org).toBe('default');
    expect(res.body.scopes).toEqual(['ingest', 'gate', 'read', 'manage']);
  });

  test("an org admin lists and reads its own org's keys only; another org's key is 404 like a missing one", async () => {
    const listA = await h.request<KeyList>('GET', '/api/v1/keys?limit=100', { key: adminA });
    expect(listA.status).toBe(200);
    expect(new Set(listA.body.data.map((k: { org: string }) => k.org))).toEqual(new Set(['org-a']));
    expect(listA.body.data.map((k: { id: string }) => k.id)).toContain(keyOfA.id);
    // An org admin cannot widen its list with ?org=.
    const widened = await h.request<KeyList>('GET', '/api/v1/keys?limit=100&org=org-b', { key: adminA });
    expect(new Set(widened.body.data.map((k: { org: string }) => k.org))).toEqual(new Set(['org-a']));
    const listB = await h.request<KeyList>('GET', '/api/v1/keys?limit=100', { key: adminB });
    expect(listB.text).not.toContain(keyOfA.id);

    expect((await h.request('GET', `/api/v1/keys/${keyOfA.id}`, { key: adminA })).status).toBe(200);
    const foreign = await h.request<Problem>('GET', `/api/v1/keys/${keyOfA.id}`, { key: adminB });
    const missing = await h.request<Problem>('GET', '/api/v1/keys/key_doesnotexist', { key: adminB });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);
    expect(foreign.body.detail).toBe(missing.body.detail);

    // The admin token sees every org, or one.
    const all = await h.request<KeyList>('GET', '/api/v1/keys?limit=100&org=org-b', { admin: true });
    expect(new Set(all.body.data.map((k: { org: string }) => k.org))).toEqual(new Set(['org-b']));
    expect((await h.request('GET', `/api/v1/keys/${keyOfA.id}`, { admin: true })).status).toBe(200);
  });

  test("every write on another org's key is 404 and leaves it as it was", async () => {
    const before: unknown = await h.db('api_keys').where({ id: keyOfA.id }).first();
    const cases: Array<[string, string, unknown]> = [
      ['PATCH', `/api/v1/keys/${keyOfA.id}`, { name: 'taken over', scopes: ALL }],
      ['POST', `/api/v1/keys/${keyOfA.id}/rotate`, { grace_period_seconds: 0 }],
      ['DELETE', `/api/v1/keys/${keyOfA.id}`, undefined],
    ];
    for (const [method, path, body] of cases) {
      const res = await h.request<Problem>(method, path, { key: adminB, body });
      expect([method, res.status, res.body?.code]).toEqual([method, 404, 'not_found']);
    }
    expect(await h.db('api_keys').where({ id: keyOfA.id }).first()).toEqual(before);
    expect(await h.db('api_keys').where({ replaced_by: keyOfA.id }).first()).toBeUndefined();
    expect((await h.request('GET', '/api/v1/keys/me', { key: keyOfA.key })).status).toBe(200);
  });

  test('a key without the admin scope is 403 on every key management operation', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['POST', '/api/v1/keys', { name: 'x' }],
      ['GET', '/api/v1/keys', undefined],
      ['GET', `/api/v1/keys/${keyOfA.id}`, undefined],
      ['PATCH', `/api/v1/keys/${keyOfA.id}`, { name: 'y' }],
      ['POST', `/api/v1/keys/${keyOfA.id}/rotate`, {}],
      ['DELETE', `/api/v1/keys/${keyOfA.id}`, undefined],
    ];
    for (const [method, path, body] of cases) {
      const res = await h.request<Problem>(method, path, { key: plainA, body });
      expect([method, path, res.status, res.body.code]).toEqual([method, path, 403, 'forbidden']);
    }
    // The metrics stay the admin token's alone, whatever the key.
    expect((await h.request('GET', '/metrics', { key: adminA })).status).toBe(401);
  });

  test('PATCH changes name, scopes and expiry; the change applies to the next request', async () => {
    const made = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      key: adminA,
      body: { name: 'reader', scopes: ['read', 'manage'] },
    });
    const key = made.body.key;
    expect((await h.request('GET', '/api/v1/sites', { key })).status).toBe(200);
    const expiry = new Date(Date.now() + 3600_000).toISOString();
    const res = await h.request<AdminKeyInfo>('PATCH', `/api/v1/keys/${made.body.id}`, {
      key: adminA,
      body: { name: 'renamed', scopes: ['ingest'], expires_at: expiry },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'renamed', scopes: ['ingest'], expires_at: expiry });
    expect((await h.request('GET', '/api/v1/sites', { key })).status).toBe(403);
    const cleared = await h.request('PATCH', `/api/v1/keys/${made.body.id}`, {
      key: adminA,
      body: { expires_at: null },
    });
    expect(cleared.body).toMatchObject({ name: 'renamed', expires_at: null });
  });

  test('PATCH validates (422, nothing changed) and refuses a revoked key (409)', async () => {
    const made = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      key: adminA,
      body: { name: 'to patch' },
    });
    const id = made.body.id;
    const before: unknown = await h.db('api_keys').where({ id }).first();
    for (const body of [
      {},
      { scopes: [] },
      { scopes: ['root'] },
      { name: '' },
      { expires_at: '2001-01-01T00:00:00Z' },
      { org: 'org-b' },
    ]) {
      const res = await h.request('PATCH', `/api/v1/keys/${id}`, { key: adminA, body });
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 422]);
    }
    expect(await h.db('api_keys').where({ id }).first()).toEqual(before);
    expect((await h.request('DELETE', `/api/v1/keys/${id}`, { key: adminA })).status).toBe(204);
    const late = await h.request<Problem>('PATCH', `/api/v1/keys/${id}`, {
      key: adminA,
      body: { name: 'z' },
    });
    expect([late.status, late.body.code]).toEqual([409, 'conflict']);
  });

  test('each write records its key event in the outbox of the key’s org, without the secret', async () => {
    const made = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      key: adminB,
      body: { name: 'evented' },
    });
    const id = made.body.id;
    await h.request('PATCH', `/api/v1/keys/${id}`, { key: adminB, body: { name: 'evented 2' } });
    const rotated = await h.request<RotatedKey>('POST', `/api/v1/keys/${id}/rotate`, {
      key: adminB,
      body: {},
    });
    await h.request('DELETE', `/api/v1/keys/${rotated.body.id}`, { key: adminB });
    const rows = await h
      .db<OutboxRow>('outbox_messages')
      .where('type', 'like', 'key.%')
      .andWhere('payload', 'like', `%${id}%`)
      .orderBy('created_at');
    expect(rows.map((r: { type: string; org: string }) => [r.type, r.org])).toEqual([
      ['key.created', 'org-b'],
      ['key.updated', 'org-b'],
      ['key.rotated', 'org-b'],
    ]);
    const revoked = await h
      .db<OutboxRow>('outbox_messages')
      .where({ type: 'key.revoked' })
      .andWhere('payload', 'like', `%${rotated.body.id}%`);
    expect(revoked).toHaveLength(1);
    const all = JSON.stringify(rows) + JSON.stringify(revoked);
    expect(all).not.toContain(made.body.key);
    expect(all).not.toContain(rotated.body.key);
  });
});
