import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { CreatedKey, Problem } from '../helpers/api-types.js';
import { dbKinds, useHarness } from '../helpers/harness.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { fromSchema, type OpenApiDoc, type Operation } from './openapi-arbitrary.js';
import { ALL_SCOPES, seedResources } from './seed-resources.js';

interface Op {
  method: string;
  template: string;
  op: Operation;
}

function keyOperations(doc: OpenApiDoc): Op[] {
  const out: Op[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if ((op.security ?? []).some((s) => 'ApiKey' in s))
        out.push({ method: method.toUpperCase(), template, op });
    }
  }
  return out;
}

// A criterion and an issue's fingerprint are not resource ids: an assessment's criterion routes are filled
// with one the seed answered, an issue's routes with a well-formed fingerprint (the site or event is the resource).
const FINGERPRINT = 'f'.repeat(64);
const fill = (template: string, id: string) =>
  template
    .replace('{criterion}', '2.4.2')
    .replace('{fingerprint}', FINGERPRINT)
    .replace(/\{[^}]+\}/g, encodeURIComponent(id));

describe.each(dbKinds)('security (%s)', (db) => {
  const h = useHarness({ db, env: { RATE_LIMIT_PER_MINUTE: '100000', AUTH_FAILURES_PER_MINUTE: '10' } });
  let doc: OpenApiDoc;

  beforeAll(() => {
    doc = h.server.service.http.openApiDocument() as OpenApiDoc;
  });

  it("org isolation: org B's key gets 404 for each of org A's resources on every endpoint, and lists never show them", async () => {
    // Both keys hold every scope (org admins too): only the org may stand between B and A's resources.
    const keyA = await h.createKey({ org: 'org-a', scopes: ALL_SCOPES });
    const keyB = await h.createKey({ org: 'org-b', scopes: ALL_SCOPES });
    const a = await seedResources(h.url, keyA, doc, 'iso-site-a');
    await seedResources(h.url, keyB, doc, 'iso-site-b');
    const idsOfA = a.ids;
    const ops = keyOperations(doc);
    const templated = ops.filter((o) => o.template.includes('{'));
    const lists = ops.filter((o) => o.method === 'GET' && !o.template.includes('{'));

    // Which (GET template, id of A) pairs name a real resource of A: those are the cases to attack.
    const owned: Array<{ template: string; id: string; body: string }> = [];
    for (const o of templated.filter((t) => t.method === 'GET')) {
      for (const id of idsOfA) {
        const res = await h.request('GET', fill(o.template, id), { key: keyA });
        if (res.status === 200) owned.push({ template: o.template, id, body: res.text });
      }
    }

    const checked: string[] = [];
    // Reads: B sees 404 exactly like a missing id.
    for (const { template, id } of owned) {
      const res = await h.request<Problem>('GET', fill(template, id), { key: keyB });
      expect([template, id, res.status, res.body?.code]).toEqual([template, id, 404, 'not_found']);
      const missing = await h.request<Problem>('GET', fill(template, id.slice(0, 4) + 'doesnotexist'), {
        key: keyB,
      });
      expect(res.body.title).toBe(missing.body.title);
      expect(res.body.detail).toBe(missing.body.detail);
      checked.push(`GET ${template}`);
    }
    // Lists (before B writes anything): nothing of A in any of B's lists, with and without filters
    // naming A's site.
    for (const o of lists) {
      for (const q of ['', '?siteId=iso-site-a', '?limit=100']) {
        const res = await h.request('GET', o.template + q, { key: keyB });
        if (res.status >= 300) continue;
        for (const id of idsOfA)
          expect([o.template, q, res.text.includes(`"${id}"`)]).toEqual([o.template, q, false]);
        checked.push(`GET ${o.template} (list)`);
      }
    }
    // Writes on A's ids (DELETE, PATCH, POST …/{id}/…) by B: 404, and A's resource is unchanged.
    // Site ids are slugs in each org's own namespace: B may PATCH (and so create) its own site of
    // the same name, which must not touch A's.
    for (const o of templated.filter((t) => t.method !== 'GET')) {
      const schema = o.op.requestBody?.content?.['application/json']?.schema;
      const body = schema ? fc.sample(fromSchema(doc, schema), { seed: 7, numRuns: 1 })[0] : undefined;
      for (const id of idsOfA) {
        const res = await h.request(o.method, fill(o.template, id), { key: keyB, body });
        const slug = !/^[a-z]{3}_/.test(id);
        const where = [o.method, o.template, id, res.status];
        if (res.status === 404) checked.push(`${o.method} ${o.template}`);
        else if (slug && res.status < 300) {
          for (const other of idsOfA.filter((i) => i !== id))
            expect([...where, res.text.includes(other)]).toEqual([...where, false]);
          checked.push(`${o.method} ${o.template} (B's own slug)`);
        } else expect(where).toEqual([o.method, o.template, id, 422]);
      }
    }
    for (const { template, id, body } of owned) {
      const res = await h.request('GET', fill(template, id), { key: keyA });
      expect(res.status).toBe(200);
      expect([template, id, stable(res.text)]).toEqual([template, id, stable(body)]);
    }
    // Creating things that point at A's resources from B must not reach them.
    if (doc.paths['/api/v1/vpat/generate']?.post) {
      const scanId = idsOfA.find((i) => i.startsWith('scn_'));
      if (scanId) {
        const res = await h.request('POST', '/api/v1/vpat/generate', {
          key: keyB,
          body: { siteId: 'iso-site-a', scan_id: scanId, product: { name: 'x', version: '1' } },
        });
        expect(res.status).toBe(404);
        checked.push('POST /api/v1/vpat/generate (A scan_id)');
      }
      // B's own report may not inherit the overrides of A's report.
      const reportId = idsOfA.find((i) => i.startsWith('vpt_'));
      if (reportId) {
        const own = { siteId: 'iso-site-b', product: { name: 'x', version: '1' } };
        // Control: without the foreign report the same request succeeds.
        expect((await h.request('POST', '/api/v1/vpat/generate', { key: keyB, body: own })).status).toBe(201);
        const res = await h.request('POST', '/api/v1/vpat/generate', {
          key: keyB,
          body: { ...own, inherit_overrides_from: reportId },
        });
        expect([res.status, res.text.includes(reportId)]).toEqual([404, false]);
        checked.push('POST /api/v1/vpat/generate (A inherit_overrides_from)');
      }
    }
    // Element pictures of A's scan: B may neither add one (a valid picture, so only the org can refuse it)
    // nor read one through A's scan.
    const scanOfA = idsOfA.find((i) => i.startsWith('scn_'));
    if (scanOfA && doc.paths['/api/v1/scans/{id}/screenshots']?.post) {
      const png =
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
      const image = { page_url: 'https://a.example/', rule: 'button-name', selector: '#buy', png };
      const posted = await h.request<Problem>('POST', `/api/v1/scans/${scanOfA}/screenshots`, {
        key: keyB,
        body: { images: [image] },
      });
      expect([posted.status, posted.body?.code]).toEqual([404, 'not_found']);
      checked.push('POST /api/v1/scans/{id}/screenshots');
      const read = await h.request<Problem>('GET', `/api/v1/scans/${scanOfA}/screenshots/img_0000000000`, {
        key: keyB,
      });
      expect([read.status, read.body?.code]).toEqual([404, 'not_found']);
      checked.push('GET /api/v1/scans/{id}/screenshots/{image}');
    }
    if (doc.paths['/api/v1/deploy/trigger']?.post) {
      const res = await h.request('POST', '/api/v1/deploy/trigger', {
        key: keyB,
        body: { siteId: 'iso-site-a', sha: 'b'.repeat(40) },
      });
      for (const id of idsOfA) expect(res.text.includes(id) && id !== 'iso-site-a').toBe(false);
      checked.push('POST /api/v1/deploy/trigger (A site)');
    }

    const covered = [...new Set(checked)].sort();
    const uncovered = ops
      .map((o) => `${o.method} ${o.template}`)
      .filter((k) => !covered.some((c) => c.startsWith(k)));
    console.log(
      `isolation matrix (${db}): ${idsOfA.length} resources of org A, ${owned.length} (endpoint, id) read pairs; ` +
        `covered:\n  ${covered.join('\n  ')}\nnot reachable with seeded resources: ${uncovered.join(', ') || 'none'}\n` +
        `seeding: ${JSON.stringify(a.attempts)}`,
    );
    // Every operation that takes an id of A (reads and writes) was attacked with one.
    expect(uncovered.filter((k) => k.includes('{'))).toEqual([]);
    // Every resource of A was reachable through at least one read.
    for (const id of idsOfA) expect([id, owned.some((o) => o.id === id)]).toEqual([id, true]);
  });

  it('a revoked key stops working at once', async () => {
    const created = await h.request<CreatedKey>('POST', '/api/v1/keys', {
      admin: true,
      body: { name: 'to revoke', org: 'rev' },
    });
    const key = created.body.key;
    expect((await h.request('GET', '/api/v1/keys/me', { key })).status).toBe(200);
    expect((await h.request('DELETE', `/api/v1/keys/${created.body.id}`, { admin: true })).status).toBe(204);
    const after = await h.request<Problem>('GET', '/api/v1/keys/me', { key });
    expect([after.status, after.body.code]).toEqual([401, 'unauthorized']);
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('brute force on keys hits the per-IP limit of failed authentications', async () => {
    // The windows are fixed minutes: start early in one so the 40 guesses cannot straddle two.
    const intoMinute = (Date.now() / 1000) % 60;
    if (intoMinute > 50) await new Promise((r) => setTimeout(r, (61 - intoMinute) * 1000));
    let unauthorized = 0;
    let limited = 0;
    let retryAfter: string | null = null;
    for (let i = 0; i < 40; i++) {
      // Well-formed guesses, so every attempt costs a lookup and a hash comparison.
      const guess = `a11y_${randomBytes(6).toString('hex')}_${randomBytes(24).toString('hex')}`;
      const res = await h.request<Problem>('GET', '/api/v1/keys/me', { key: guess });
      if (res.status === 401) unauthorized += 1;
      if (res.status === 429) {
        limited += 1;
        retryAfter = res.headers.get('retry-after');
        expect(res.body.code).toBe('rate_limited');
      }
    }
    console.log(
      `brute force (${db}): 40 guesses → ${unauthorized} × 401, ${limited} × 429 (limit 10/min/IP)`,
    );
    expect(unauthorized).toBeLessThanOrEqual(10);
    expect(limited).toBe(40 - unauthorized);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});

/** Fields that may legitimately move between two reads of an untouched resource. */
function stable(text: string): unknown {
  const volatile = new Set(['last_used_at', 'check_run']);
  return JSON.parse(text, (k, v: unknown) => (volatile.has(k) ? undefined : v));
}

describe('credentials never reach the logs (real server process, LOG_LEVEL=debug)', () => {
  let server: ServerProcess;

  afterAll(async () => {
    await server?.dispose();
  });

  it('no key, secret or token used during a run appears in the log output', async () => {
    const secretKey = randomBytes(32).toString('hex');
    server = await startServerProcess({
      env: { LOG_LEVEL: 'debug', AUTH_FAILURES_PER_MINUTE: '1000', WEBHOOK_SECRET_KEY: secretKey },
    });
    const secrets: string[] = [server.adminToken, secretKey];
    const a = await server.createKey('logs', ALL_SCOPES);
    const revoked = await server.createKey('logs');
    secrets.push(a.key, revoked.key);
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as OpenApiDoc;
    secrets.push(...(await seedResources(server.url, a.key, doc, 'log-site')).secrets);
    // Webhook secrets, when the endpoint exists.
    if (doc.paths['/api/v1/webhooks']?.post) {
      const res = await fetch(`${server.url}/api/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://hooks.example.com/logs', events: ['scan.created'] }),
      });
      const body = (await res.json()) as { secret?: string };
      if (body.secret) secrets.push(body.secret);
    }
    await fetch(`${server.url}/api/v1/keys/${revoked.id}`, {
      method: 'DELETE',
      headers: { 'x-admin-token': server.adminToken },
    });
    const wrong = `a11y_${randomBytes(6).toString('hex')}_${randomBytes(24).toString('hex')}`;
    secrets.push(wrong);
    for (const [headers, path] of [
      [{ authorization: `Bearer ${a.key}` }, '/api/v1/keys/me'],
      [{ 'x-api-key': a.key }, '/api/v1/keys/me'],
      [{ authorization: `Bearer ${revoked.key}` }, '/api/v1/keys/me'],
      [{ authorization: `Bearer ${wrong}` }, '/api/v1/keys/me'],
      [{ authorization: `Basic ${Buffer.from(`x:${a.key}`).toString('base64')}` }, '/api/v1/keys/me'],
      [{ 'x-admin-token': server.adminToken }, '/api/v1/keys'],
      [{ 'x-admin-token': server.adminToken }, '/metrics'],
      [{ 'x-admin-token': `${server.adminToken}x` }, '/api/v1/keys'],
      [{ authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, '/api/v1/nope'],
    ] as Array<[Record<string, string>, string]>) {
      await (await fetch(server.url + path, { headers })).text();
    }
    await server.stop();

    expect(server.logs.length).toBeGreaterThan(10);
    const text = server.logs.join('\n');
    // Whole secrets, their secret halves, and the Basic encoding of a key.
    const needles = secrets.flatMap((s) => [s, s.slice(-24), Buffer.from(`x:${s}`).toString('base64')]);
    for (const needle of needles) expect(text.includes(needle)).toBe(false);
    console.log(
      `log scan: ${server.logs.length} log lines at debug level, ${secrets.length} secrets, none found`,
    );
  });
});
