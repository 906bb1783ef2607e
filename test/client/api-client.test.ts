import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { ApiClient, ApiError, parseRetryAfter } from '../../client/api-client.js';
import { json, useScriptedApi, type Answer } from '../helpers/scripted-api.js';

const api = useScriptedApi();

function problem(status: number, code: string, detail: string, extra: Record<string, unknown> = {}): Answer {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/problem+json', ...(extra.headers as object) });
    res.end(
      JSON.stringify({
        type: 'about:blank',
        title: code,
        status,
        detail,
        code,
        request_id: 'req_1',
        ...extra.body!,
      }),
    );
  };
}

function client(overrides: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  const sleeps: number[] = [];
  const logs: string[] = [];
  const c = new ApiClient({
    baseUrl: api.baseUrl,
    apiKey: 'a11y_test_key',
    retries: 3,
    retryDelayMs: 1000,
    random: () => 0.5,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    log: (m) => logs.push(m),
    ...overrides,
  });
  return { c, sleeps, logs };
}

test('503 then 201: retried once with the same Idempotency-Key and body, Location resolved', async () => {
  api.script = [
    problem(503, 'unavailable', 'The database is not reachable.'),
    json(201, { id: 'scn_1' }, { location: '/api/v1/scans/scn_1' }),
  ];
  const { c, sleeps, logs } = client();
  const res = await c.post<{ id: string }>('/api/v1/scans', { url: 'https://x/', pages: [] }, 'key-1');
  expect(res).toMatchObject({
    status: 201,
    body: { id: 'scn_1' },
    location: `${api.baseUrl}/api/v1/scans/scn_1`,
    replayed: false,
  });
  expect(api.seen).toHaveLength(2);
  for (const s of api.seen) {
    expect(s.method).toBe('POST');
    expect(s.url).toBe('/api/v1/scans');
    expect(s.headers.authorization).toBe('Bearer a11y_test_key');
    expect(s.headers['idempotency-key']).toBe('key-1');
    expect(s.headers['content-type']).toBe('application/json');
    expect(JSON.parse(s.raw.toString())).toEqual({ url: 'https://x/', pages: [] });
  }
  // Equal jitter with random 0.5: three quarters of the 1 s base delay.
  expect(sleeps).toEqual([750]);
  expect(logs).toEqual(['POST /api/v1/scans: 503 unavailable; retry 1/3 in 0.8 s']);
});

test('backoff doubles up to the cap', async () => {
  api.script = [
    problem(502, 'bad_gateway', 'x'),
    problem(500, 'internal', 'x'),
    problem(504, 'timeout', 'x'),
    json(201, { ok: true }),
  ];
  const { c, sleeps } = client({ maxRetryDelayMs: 3000, random: () => 0 });
  await c.post('/api/v1/deploy/trigger', {}, 'k');
  expect(sleeps).toEqual([500, 1000, 1500]);
});

test('429 with Retry-After waits what the server asks, beyond the backoff cap (the service counts per minute), then succeeds', async () => {
  api.script = [
    problem(429, 'rate_limited', 'Too many requests.', { headers: { 'retry-after': '7' } }),
    problem(429, 'rate_limited', 'Too many requests.', { headers: { 'retry-after': '45' } }),
    problem(429, 'rate_limited', 'Too many requests.', { headers: { 'retry-after': '3600' } }),
    json(201, { id: 'dep_1' }, { 'idempotent-replayed': 'true' }),
  ];
  const { c, sleeps, logs } = client({ maxRetryDelayMs: 30_000 });
  const res = await c.post('/api/v1/deploy/trigger', {}, 'k');
  expect(res.replayed).toBe(true);
  // An hour is not waited for: at most a minute, the longest window the service itself uses.
  expect(sleeps).toEqual([7000, 45_000, 60_000]);
  expect(logs[0]).toBe('POST /api/v1/deploy/trigger: 429 rate_limited; retry 1/3 in 7.0 s (Retry-After)');
});

test('422 problem+json is rejected at once with the detail and the JSON pointers', async () => {
  api.script = [
    problem(422, 'validation_failed', 'The request body is invalid.', {
      body: { errors: [{ pointer: '#/pages/0/issues/3/impact', detail: 'Invalid option' }] },
    }),
  ];
  const { c, sleeps } = client();
  const err = await c.post('/api/v1/scans', {}, 'k').catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect(err).toMatchObject({
    kind: 'rejected',
    message:
      'POST /api/v1/scans answered 422 validation_failed: The request body is invalid. (#/pages/0/issues/3/impact: Invalid option)',
    details: { status: 422, code: 'validation_failed', requestId: 'req_1', attempts: 1 },
  });
  expect(api.seen).toHaveLength(1);
  expect(sleeps).toEqual([]);
});

test('401 is rejected (a wrong key is no outage); a non-JSON error body still says something', async () => {
  api.script = [
    (res) => {
      res.writeHead(401, { 'content-type': 'text/html' });
      res.end('<h1>nope</h1>');
    },
  ];
  const err = (await client()
    .c.post('/api/v1/scans', {}, 'k')
    .catch((e: unknown) => e)) as ApiError;
  expect(err.kind).toBe('rejected');
  expect(err.message).toBe('POST /api/v1/scans answered 401: Unauthorized');
});

test('5xx on every attempt is an outage after retries + 1 attempts', async () => {
  api.script = Array.from({ length: 4 }, () => problem(503, 'unavailable', 'Shutting down.'));
  const { c, sleeps } = client();
  const err = (await c.post('/api/v1/scans', {}, 'k').catch((e: unknown) => e)) as ApiError;
  expect(err.kind).toBe('outage');
  expect(err.message).toBe('POST /api/v1/scans answered 503 unavailable: Shutting down. (after 4 attempts)');
  expect(api.seen).toHaveLength(4);
  expect(sleeps).toHaveLength(3);
});

test('connection refused is retried, then an outage naming ECONNREFUSED', async () => {
  // A port that was just free: bind, read it, close.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));

  const { c, sleeps, logs } = client({ baseUrl: `http://127.0.0.1:${port}` });
  const err = (await c.post('/api/v1/scans', {}, 'k').catch((e: unknown) => e)) as ApiError;
  expect(err).toBeInstanceOf(ApiError);
  expect(err.kind).toBe('outage');
  expect(err.message).toMatch(/^POST \/api\/v1\/scans failed after 4 attempts: fetch failed \(ECONNREFUSED/);
  expect(sleeps).toHaveLength(3);
  expect(logs[0]).toMatch(/ECONNREFUSED.*retry 1\/3/);
});

test('a server that never answers times out and is retried', async () => {
  api.script = [() => undefined, json(201, { ok: true })];
  const { c, logs } = client({ timeoutMs: 200 });
  const res = await c.post('/api/v1/scans', {}, 'k');
  expect(res.status).toBe(201);
  expect(logs[0]).toMatch(/no answer within 0.2 s; retry 1\/3/);
});

test('large bodies are sent gzip-compressed', async () => {
  api.script = [json(201, { ok: true })];
  const body = {
    pages: Array.from({ length: 2000 }, (_, i) => ({ url: `https://shop.example.com/p/${i}` })),
  };
  await client({ gzipAboveBytes: 1024 }).c.post('/api/v1/scans', body, 'k');
  expect(api.seen[0].headers['content-encoding']).toBe('gzip');
  expect(api.seen[0].raw.length).toBeLessThan(JSON.stringify(body).length / 5);
  expect(JSON.parse(gunzipSync(api.seen[0].raw).toString())).toEqual(body);
});

test('parseRetryAfter: seconds or an HTTP date', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');
  expect(parseRetryAfter('5', now)).toBe(5000);
  expect(parseRetryAfter('Mon, 23 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
  expect(parseRetryAfter('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(0);
  expect(parseRetryAfter('soon', now)).toBeNull();
  expect(parseRetryAfter(null, now)).toBeNull();
});

test('a redirect (http → https, a moved service) is a configuration mistake: rejected at once, naming the target', async () => {
  api.script = [
    (res) => {
      res.writeHead(308, { location: 'https://a11y.example.com/api/v1/scans' });
      res.end();
    },
  ];
  const { c, sleeps } = client();
  const err = (await c.post('/api/v1/scans', {}, 'k').catch((e: unknown) => e)) as ApiError;
  expect(err).toBeInstanceOf(ApiError);
  expect(err.kind).toBe('rejected');
  expect(err.message).toBe(
    'POST /api/v1/scans answered 308 (a redirect to https://a11y.example.com/api/v1/scans): set api-url to where the service answers; redirects are not followed, so the key is never sent elsewhere',
  );
  expect(api.seen).toHaveLength(1);
  expect(sleeps).toEqual([]);
});

test('a 2xx that is not JSON (a proxy login page, api-url pointing at a website) is rejected at once, not an outage', async () => {
  api.script = [
    (res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Sign in</body></html>');
    },
  ];
  const { c, sleeps } = client();
  const err = (await c.post('/api/v1/deploy/trigger', {}, 'k').catch((e: unknown) => e)) as ApiError;
  expect(err).toBeInstanceOf(ApiError);
  expect(err.kind).toBe('rejected');
  expect(err.message).toBe(
    'POST /api/v1/deploy/trigger answered 200 text/html that is not JSON: is api-url the a11y-gate service (and not a sign-in page in front of it)?',
  );
  expect(api.seen).toHaveLength(1);
  expect(sleeps).toEqual([]);
});

test('a connection that breaks while the answer is read is retried like any network error', async () => {
  api.script = [
    (res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"id":');
      setTimeout(() => res.destroy(), 20);
    },
    json(201, { id: 'dep_1' }),
  ];
  const { c, sleeps } = client();
  const res = await c.post<{ id: string }>('/api/v1/deploy/trigger', {}, 'k');
  expect(res.body).toEqual({ id: 'dep_1' });
  expect(api.seen).toHaveLength(2);
  expect(sleeps).toHaveLength(1);
});

test('a keyed GET carries the key, no body and no Idempotency-Key; 503 is retried, 404 rejected naming GET', async () => {
  api.script = [
    problem(503, 'unavailable', 'The database is not reachable.'),
    json(200, { id: 'dep_1', passed: true }),
    problem(404, 'not_found', 'Deploy event not found.'),
  ];
  const { c, logs } = client();
  const res = await c.get<{ id: string; passed: boolean }>('/api/v1/deploy/dep_1');
  expect(res).toMatchObject({ status: 200, body: { id: 'dep_1', passed: true } });
  expect(api.seen).toHaveLength(2);
  for (const s of api.seen) {
    expect(s.method).toBe('GET');
    expect(s.headers.authorization).toBe('Bearer a11y_test_key');
    expect(s.headers['idempotency-key']).toBeUndefined();
    expect(s.raw.length).toBe(0);
  }
  expect(logs).toEqual(['GET /api/v1/deploy/dep_1: 503 unavailable; retry 1/3 in 0.8 s']);
  const refused = await c.get('/api/v1/deploy/dep_2').catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ApiError);
  expect((refused as ApiError).kind).toBe('rejected');
  expect((refused as ApiError).message).toBe(
    'GET /api/v1/deploy/dep_2 answered 404 not_found: Deploy event not found.',
  );
});
