import { gzipSync } from 'node:zlib';
import type { CreatedKey, CreatedWebhook, KeyInfo, Problem } from '../helpers/api-types.js';
import { dbKinds, useHarness, type TestResponse } from '../helpers/harness.js';

const keyBody = (name: string) => ({ name, org: 'acme', scopes: ['read'] });

/** The column of a stored idempotency record these tests read. */
interface IdempotencyRow {
  response_body: string;
}

describe.each(dbKinds)('HTTP behaviour of every endpoint (%s)', (db) => {
  const h = useHarness({ db, env: { BODY_LIMIT_MB: '1' } });

  const countKeys = async () => Number((await h.db('api_keys').count({ n: '*' }))[0].n);

  test('a body that is not JSON is 400 malformed_json and stores nothing', async () => {
    const before = await countKeys();
    const res = await h.request<Problem>('POST', '/api/v1/keys', {
      admin: true,
      raw: '{"name": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'malformed_json', status: 400, title: 'Malformed JSON' });
    expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
    expect(await countKeys()).toBe(before);
  });

  test('a body that is not application/json is 415', async () => {
    const res = await h.request<Problem>('POST', '/api/v1/keys', {
      admin: true,
      raw: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  test('gzip bodies are accepted, and the limit applies after decompression (gzip bomb → 413)', async () => {
    const ok = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      admin: true,
      raw: gzipSync(JSON.stringify(keyBody('zipped'))),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.name).toBe('zipped');

    // 1 KB of gzip that inflates to 3 MB of JSON against a 1 MB limit.
    const bomb = gzipSync(JSON.stringify({ name: 'x', padding: 'a'.repeat(3 * 1024 * 1024) }));
    expect(bomb.length).toBeLessThan(10_000);
    const before = await countKeys();
    const res = await h.request<Problem>('POST', '/api/v1/keys', {
      admin: true,
      raw: bomb,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
    expect(await countKeys()).toBe(before);
  });

  test('a plain body over the limit is 413', async () => {
    const res = await h.request('POST', '/api/v1/keys', {
      admin: true,
      raw: JSON.stringify({ name: 'x', padding: 'a'.repeat(1024 * 1024 + 10) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
  });

  test('unknown routes are 404 and known paths with another method are 405 with Allow', async () => {
    const missing = await h.request<Problem>('GET', '/api/v1/no-such-thing');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    const wrongMethod = await h.request<Problem>('PUT', '/api/v1/keys');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.code).toBe('method_not_allowed');
    expect(wrongMethod.headers.get('allow')).toBe('POST, GET, HEAD');
  });

  test('a path id that is not valid percent-encoding is 404, on every resource with an id', async () => {
    const key = await h.createKey({ org: 'acme' });
    for (const path of [
      '/api/v1/scans/%FF',
      '/api/v1/deploy/%E0%A4',
      '/api/v1/waivers/%FF',
      '/api/v1/vpat/%C0',
      '/api/v1/webhooks/%FF/deliveries',
      '/api/v1/sites/%FF',
    ]) {
      const res = await h.request<Problem>('GET', path, { key });
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'not_found']);
    }
  });

  test('a forged cursor is 422 on every list, also when it carries U+0000', async () => {
    const key = await h.createKey({ org: 'acme' });
    const forged = [
      Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', 'a\u0000b'])).toString('base64url'),
      Buffer.from(JSON.stringify(['x\u0000'])).toString('base64url'),
      'not-a-cursor',
    ];
    for (const list of ['/api/v1/scans', '/api/v1/sites', '/api/v1/waivers', '/api/v1/webhooks']) {
      for (const cursor of forged) {
        const res = await h.request<Problem>('GET', `${list}?cursor=${cursor}`, { key });
        expect([list, cursor, res.status]).toEqual([list, cursor, 422]);
        expect(res.body.errors?.[0].pointer).toBe('#/query/cursor');
      }
    }
  });

  test('answers that hold a secret are replayed by Idempotency-Key but never stored in clear', async () => {
    const headers = { 'idempotency-key': `secret-${db}` };
    const first = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      admin: true,
      headers,
      body: keyBody('ci-secret'),
    });
    expect(first.status).toBe(201);
    const replay = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      admin: true,
      headers,
      body: keyBody('ci-secret'),
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.key).toBe(first.body.key);

    const manage = await h.createKey({ org: 'acme', scopes: ['manage'] });
    const hook = { url: 'https://hooks.example.com/a11y', events: ['scan.created'] };
    const hookHeaders = { 'idempotency-key': `hook-${db}` };
    const created = await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
      key: manage,
      headers: hookHeaders,
      body: hook,
    });
    expect(created.status).toBe(201);
    const again = await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
      key: manage,
      headers: hookHeaders,
      body: hook,
    });
    expect(again.body.secret).toBe(created.body.secret);

    const stored = (await h.db<IdempotencyRow>('idempotency_keys').select('response_body')).map((r) =>
      String(r.response_body),
    );
    const all = stored.join('\n');
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(all).not.toContain(first.body.key);
    expect(all).not.toContain(created.body.secret);
    expect(all).not.toContain(created.body.secret.slice('whsec_'.length));
  });

  test('request ids are echoed when sane and generated otherwise', async () => {
    const echoed = await h.request('GET', '/api/v1', { headers: { 'x-request-id': 'ci-run-42.step-3' } });
    expect(echoed.headers.get('x-request-id')).toBe('ci-run-42.step-3');
    const replaced = await h.request('GET', '/api/v1', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('responses carry no-store and helmet headers', async () => {
    const res = await h.request('GET', '/api/v1');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  test('Idempotency-Key replays the first answer and refuses another body', async () => {
    const headers = { 'idempotency-key': `idem-${db}-1` };
    const first = await h.request('POST', '/api/v1/keys', { admin: true, headers, body: keyBody('idem') });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const before = await countKeys();
    const again = await h.request('POST', '/api/v1/keys', { admin: true, headers, body: keyBody('idem') });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(await countKeys()).toBe(before);

    const other = await h.request<Problem>('POST', '/api/v1/keys', {
      admin: true,
      headers,
      body: keyBody('different'),
    });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(await countKeys()).toBe(before);
  });

  test('a rejected request does not burn its Idempotency-Key', async () => {
    const headers = { 'idempotency-key': `idem-${db}-2` };
    const bad = await h.request('POST', '/api/v1/keys', { admin: true, headers, body: { name: '' } });
    expect(bad.status).toBe(422);
    const fixed = await h.request('POST', '/api/v1/keys', { admin: true, headers, body: keyBody('fixed') });
    expect(fixed.status).toBe(201);
  });

  test('healthz, readyz and metrics', async () => {
    expect((await h.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await h.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', database: db, migrations: 'applied' });
    expect((await h.request('GET', '/metrics')).status).toBe(401);
    const metrics = await h.request('GET', '/metrics', { admin: true });
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('a11y_gate_http_request_duration_seconds_bucket');
  });
});

describe.each(dbKinds)('rate limits (%s)', (db) => {
  const h = useHarness({ db, env: { RATE_LIMIT_PER_MINUTE: '5', AUTH_FAILURES_PER_MINUTE: '4' } });

  test('a key gets its per-minute budget, then 429 with Retry-After and RateLimit headers', async () => {
    const key = await h.createKey();
    const statuses: number[] = [];
    let last: TestResponse<KeyInfo | Problem> | undefined;
    for (let i = 0; i < 7; i++) {
      last = await h.request<KeyInfo | Problem>('GET', '/api/v1/keys/me', { key });
      statuses.push(last.status);
    }
    // The window may roll over mid-loop; what must hold is that no more than 5 pass in one window.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    const limited =
      last?.status === 429 ? last : await h.request<KeyInfo | Problem>('GET', '/api/v1/keys/me', { key });
    expect(limited.status).toBe(429);
    // A 429 answers problem+json.
    expect((limited.body as Problem).code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit')).toMatch(/^limit=5, remaining=0, reset=\d+$/);
    expect(limited.headers.get('ratelimit-policy')).toBe('5;w=60');
    // Another key has its own budget.
    const other = await h.createKey();
    const ok = await h.request('GET', '/api/v1/keys/me', { key: other });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit-remaining')).toBe('4');
  });

  test('failed authentications are limited per address, but a valid key or admin token still works', async () => {
    const valid = await h.createKey();
    const bad = 'a11y_AAAAAAAAAAAA_' + 'B'.repeat(38);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await h.request('GET', '/api/v1/keys/me', { key: bad })).status);
    }
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.slice(4)).toEqual([429, 429]);
    const refused = await h.request('GET', '/api/v1/keys/me', { key: bad });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    // Someone else's guesses from the same address (or a shared proxy) never lock out a valid credential.
    expect((await h.request('GET', '/api/v1/keys/me', { key: valid })).status).toBe(200);
    expect((await h.request('GET', '/api/v1/keys', { admin: true })).status).toBe(200);
    const wrongAdmin = await h.request('GET', '/api/v1/keys', {
      headers: { 'x-admin-token': 'y'.repeat(40) },
    });
    expect(wrongAdmin.status).toBe(429);
  });

  test('guesses at one key id from many addresses are limited per key id', async () => {
    const created = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      admin: true,
      body: { name: 'target', org: 'rl' },
    });
    const real: string = created.body.key;
    // Same public id, wrong secret (and so a wrong checksum): a guess aimed at this key.
    const { generateApiKey } = await import('../../api/domain/access/api-key.js');
    const guessFor = () => {
      const other = generateApiKey().key;
      return real.slice(0, 18) + other.slice(18);
    };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await h.request('GET', '/api/v1/keys/me', {
        key: guessFor(),
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    // The key itself still works, from any address.
    expect((await h.request('GET', '/api/v1/keys/me', { key: real })).status).toBe(200);
  });
});
