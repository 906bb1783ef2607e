import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { dbKinds, useHarness } from '../helpers/harness.js';
import { fromSchema, mutate, type OpenApiDoc, type Operation, type Overrides } from './openapi-arbitrary.js';
import { wcagEmText } from './json-ld-arbitrary.js';
import { rowCounts } from './row-counts.js';
import { ALL_SCOPES, seedResources } from './seed-resources.js';
import { consoleRequestFor, consoleRoutes, type ConsoleRequest } from './console-arbitrary.js';
import { ConsoleClient } from '../console/client.js';
import { consoleRouter } from '../../api/console/index.js';

/**
 * Property-based fuzzing of every operation in the service's own OpenAPI document (so endpoints that
 * land later are covered without editing this file): generated and mutated bodies, headers, query
 * strings, ids and content types. Every answer must be below 500, valid against the document, and a
 * rejected request must leave every table as it was.
 */

const SEED = 20261123;
const RUNS: Record<string, number> = {
  sqlite: Number(process.env.FUZZ_RUNS ?? 5000),
  postgres: Number(process.env.FUZZ_RUNS_PG ?? 1500),
};
const IMPORT_RUNS: Record<string, number> = {
  sqlite: Number(process.env.FUZZ_IMPORT_RUNS ?? 200),
  postgres: Number(process.env.FUZZ_IMPORT_RUNS_PG ?? 100),
};
const CONSOLE_RUNS: Record<string, number> = {
  sqlite: Number(process.env.FUZZ_CONSOLE_RUNS ?? 1000),
  postgres: Number(process.env.FUZZ_CONSOLE_RUNS_PG ?? 1000),
};
/** The console's pages of each kind of id, where its forms are found. */
const PAGE_OF_PREFIX: Record<string, string> = {
  scn_: 'scans',
  vpt_: 'reports',
  dep_: 'deploys',
  asm_: 'assessments',
};

interface Target {
  method: string;
  template: string;
  op: Operation;
  credential: 'public' | 'admin' | 'key';
}

interface FuzzRequest {
  target: Target;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  describe: string;
}

const ascii = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });

const contentTypes = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/merge-patch+json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      'application/xml',
      '',
    ),
  },
  { weight: 1, arbitrary: ascii(60) },
);

const encodings = fc.oneof(
  { weight: 12, arbitrary: fc.constant<string | undefined>(undefined) },
  { weight: 2, arbitrary: fc.constant('gzip') },
  { weight: 1, arbitrary: fc.constantFrom('deflate', 'br', 'compress', 'identity', 'gzip, gzip', 'x-bogus') },
);

function targetsOf(doc: OpenApiDoc): Target[] {
  const out: Target[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
      const credential = schemes.includes('AdminToken')
        ? 'admin'
        : schemes.includes('ApiKey')
          ? 'key'
          : 'public';
      out.push({ method: method.toUpperCase(), template, op, credential });
    }
  }
  return out;
}

describe.each(dbKinds)('hostile input on every endpoint (%s)', (db) => {
  const h = useHarness({
    db,
    env: {
      RATE_LIMIT_PER_MINUTE: '10000000',
      AUTH_FAILURES_PER_MINUTE: '10000000',
      BODY_LIMIT_MB: '1',
    },
  });
  let doc: OpenApiDoc;
  let fullKey: string;
  let readOnlyKey: string;
  let otherOrgKey: string;
  /** Ids and site ids of resources that exist, so path parameters sometimes name real things. */
  const known: string[] = [];

  beforeAll(async () => {
    doc = h.server.service.http.openApiDocument() as OpenApiDoc;
    fullKey = await h.createKey({ org: 'fuzz', scopes: ALL_SCOPES });
    readOnlyKey = await h.createKey({ org: 'fuzz', scopes: ['read'] });
    otherOrgKey = await h.createKey({ org: 'fuzz-other', scopes: ALL_SCOPES });
    known.push(...(await seedResources(h.url, fullKey, doc)).ids);
  });

  it(`answers ${RUNS[db]} generated requests without a 5xx, within the contract, storing nothing on rejection`, async () => {
    const targets = targetsOf(doc);
    expect(targets.length).toBeGreaterThan(5);
    const perOperation = new Map<string, number>();
    const statuses = new Map<number, number>();

    // Every failing case is recorded (the first of each kind in full) and the run goes on, so one
    // run reports every distinct defect instead of the first.
    const failures = new Map<string, { count: number; first: string }>();
    // The request before a failing one, for a reset on a connection that request left behind.
    let previous = '';
    let resent = 0;
    // Every operation gets an even share of the cases (fc.oneof's random picks leave some with a few), in a
    // seeded random order so that operations meet each other's leftovers. Each case is drawn just before it
    // is sent, so it may name what earlier cases created.
    const shareOf = (i: number) =>
      Math.floor(RUNS[db] / targets.length) + (i < RUNS[db] % targets.length ? 1 : 0);
    const arbitraries = targets.map((t) => requestFor(t));
    const slots = targets.flatMap((_, i) => Array.from({ length: shareOf(i) }, () => i));
    const [order] = fc.sample(fc.shuffledSubarray(slots, { minLength: slots.length }), {
      seed: SEED,
      numRuns: 1,
    });
    for (const [n, i] of order.entries()) {
      const [r] = fc.sample(arbitraries[i], { seed: SEED + n, numRuns: 1 });
      try {
        await fuzzOne(r);
      } catch (err) {
        const message = (err as Error).message;
        const kind = `${r.target.method} ${r.target.template}: ${message.split('\n')[0].slice(0, 160)}`;
        const seen = failures.get(kind);
        if (seen) seen.count += 1;
        else failures.set(kind, { count: 1, first: message.slice(0, 3000) });
      }
    }

    async function fuzzOne(r: FuzzRequest): Promise<void> {
      const before = r.method === 'GET' ? undefined : await rowCounts(h.db);
      const send = () =>
        fetch(h.url + r.path, { method: r.method, headers: r.headers, body: r.body, redirect: 'manual' });
      // A reset before any answer on a reused keep-alive connection is a race of the transport, not
      // the server's answer to this request: such a request is sent once more on a new connection.
      // A request that makes the server drop the connection is dropped again and reported.
      const res = await send()
        .catch((err: Error) => {
          if (!/ECONNRESET|socket/i.test(String((err.cause as Error | undefined)?.message))) throw err;
          resent += 1;
          return send();
        })
        .catch((err: Error) => {
          throw new Error(
            `no answer (${String((err.cause as Error | undefined)?.message ?? err.message)})\nrequest: ${r.describe}\nprevious: ${previous}`,
            { cause: err },
          );
        });
      previous = `${r.describe} → ${res.status} ${res.headers.get('connection')}`;
      const text = await res.text();
      const type = res.headers.get('content-type');
      const label = `${r.target.method} ${r.target.template}`;
      perOperation.set(label, (perOperation.get(label) ?? 0) + 1);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500) throw new Error(`${res.status} for ${r.describe}\n${text.slice(0, 500)}`);
      let parsed: unknown = text || undefined;
      if (type?.includes('json') && text) parsed = JSON.parse(text);
      try {
        // express routes are not strict: "/x/" is "/x", and is checked as such.
        // The URL parser resolves "..": check what the server actually received.
        const sent = new URL(h.url + r.path);
        const checked = (sent.pathname + sent.search).replace(/(.)\/(\?|$)/, '$1$2');
        try {
          h.contract.check(r.method, checked, res.status, type, parsed);
        } catch (err) {
          // The checker prefers a literal path (/keys/me, /vpat/generate); express also routes
          // DELETE /keys/me to /keys/{id} and GET /vpat/generate to /vpat/{id}. Accept the answer
          // if it is documented for that templated operation.
          if (!/method is not documented/.test((err as Error).message)) throw err;
          const other = alsoRoutedTo(r.method, checked.split('?')[0]);
          if (!other?.responses[String(res.status)]) throw err;
        }
      } catch (err) {
        throw new Error(`${(err as Error).message}\nrequest: ${r.describe}`, { cause: err });
      }
      if (res.status >= 200 && res.status < 300 && parsed && typeof parsed === 'object') {
        const b = parsed as { id?: unknown; siteId?: unknown };
        if (typeof b.id === 'string' && !b.id.startsWith('key_')) known.push(b.id);
        if (typeof b.siteId === 'string') known.push(b.siteId);
      }
      if (before && res.status >= 400) {
        const after = await rowCounts(h.db);
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          throw new Error(
            `rejected request (${res.status}) changed stored rows: ${JSON.stringify(before)} → ${JSON.stringify(after)}\nrequest: ${r.describe}`,
          );
        }
      }
    }

    // Failures first: a case that never got an answer is missing from the count, and its report
    // says why.
    const report = [...failures].map(([kind, f]) => `${f.count} × ${kind}\n${f.first}`);
    expect(report).toEqual([]);
    const total = [...perOperation.values()].reduce((a, b) => a + b, 0);
    expect(total).toBe(RUNS[db]);
    // Every case of every operation was answered.
    targets.forEach((t, i) => {
      const op = `${t.method} ${t.template}`;
      expect([op, perOperation.get(op)]).toEqual([op, shareOf(i)]);
    });
    console.log(
      `fuzz (${db}): ${total} cases over ${targets.length} operations, seed ${SEED}, ${resent} resent after a reset\n` +
        `statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}\n` +
        [...perOperation].map(([k, v]) => `  ${k}: ${v}`).join('\n'),
    );
  });

  it(`answers ${CONSOLE_RUNS[db]} hostile requests to the console's pages and forms without a 5xx, storing nothing on rejection`, async () => {
    const routes = consoleRoutes(consoleRouter(h.server.service.ctx));
    expect(routes.length).toBeGreaterThan(10);
    let client = new ConsoleClient(h.url);
    let csrf = '';
    // Each session has its own CSRF token: read it from a page with a form after every sign-in.
    const signIn = async () => {
      client = new ConsoleClient(h.url);
      expect(await client.signIn(fullKey)).toBe('/');
      csrf = ConsoleClient.csrfOf((await client.get('/sign-out')).text);
    };
    await signIn();
    // The forms' own field names, read from the pages that hold them: of resources made now, as the API's
    // cases may have deleted the first seed's site.
    known.push(...(await seedResources(h.url, fullKey, doc, 'console-seed-site')).ids);
    const fields = new Set<string>();
    const pages = ['/', '/sites/seed-site', '/sites/console-seed-site', '/sign-out'];
    for (const id of known) {
      const kind = PAGE_OF_PREFIX[id.slice(0, 4)];
      if (kind) pages.push(`/${kind}/${encodeURIComponent(id)}`);
    }
    for (const path of pages) {
      const page = await client.get(path);
      for (const m of page.text.matchAll(/name="([^"]+)"/g)) fields.add(m[1]);
    }
    expect(csrf).not.toBe('');
    expect(fields.size).toBeGreaterThan(5);

    const perRoute = new Map<string, number>();
    const statuses = new Map<number, number>();
    const failures = new Map<string, { count: number; first: string }>();
    const requestArb = fc.oneof(...routes.map((r) => consoleRequestFor(r, known, [...fields])));
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        try {
          await consoleOne(r);
        } catch (err) {
          const message = (err as Error).message;
          const kind = `${r.route.method} ${r.route.template}: ${message.split('\n')[0].slice(0, 160)}`;
          const seen = failures.get(kind);
          if (seen) seen.count += 1;
          else failures.set(kind, { count: 1, first: message.slice(0, 3000) });
        }
      }),
      { seed: SEED, numRuns: CONSOLE_RUNS[db] },
    );

    async function consoleOne(r: ConsoleRequest): Promise<void> {
      const headers: Record<string, string> = {};
      if (r.session) headers.cookie = `a11y_session=${client.cookie('a11y_session')}`;
      const form = r.form;
      if (form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        if (r.csrf === 'valid') form.set('_csrf', csrf);
        else if (r.csrf === 'wrong') form.set('_csrf', (csrf[0] === 'A' ? 'B' : 'A') + csrf.slice(1));
        else form.delete('_csrf');
      }
      const before = r.method === 'GET' ? undefined : await rowCounts(h.db);
      const res = await fetch(h.url + r.path, {
        method: r.method,
        headers,
        body: form?.toString(),
        redirect: 'manual',
      });
      const text = await res.text();
      const label = `${r.route.method} ${r.route.template}`;
      perRoute.set(label, (perRoute.get(label) ?? 0) + 1);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500) throw new Error(`${res.status} for ${r.describe}\n${text.slice(0, 500)}`);
      // A form of a signed-in visitor without this session's token is refused (403; 404 when it names
      // nothing), whatever it holds.
      const guarded = r.method === 'POST' && r.route.method === 'POST' && r.route.template !== '/sign-in';
      if (guarded && r.session && r.csrf !== 'valid' && res.status < 400) {
        throw new Error(`${res.status} for a form without its CSRF token: ${r.describe}`);
      }
      if (before && (res.status >= 400 || (guarded && r.csrf !== 'valid'))) {
        const after = await rowCounts(h.db);
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          throw new Error(
            `rejected request (${res.status}) changed stored rows: ${JSON.stringify(before)} → ${JSON.stringify(after)}\nrequest: ${r.describe}`,
          );
        }
      }
      // Signing out (a valid form) ends the session the other cases use: sign in again.
      if (r.route.template === '/sign-out' && r.method === 'POST' && res.status === 303) await signIn();
    }

    const report = [...failures].map(([kind, f]) => `${f.count} × ${kind}\n${f.first}`);
    expect(report).toEqual([]);
    // Every route got a fair share of the cases.
    for (const route of routes) {
      expect([
        route.method,
        route.template,
        (perRoute.get(`${route.method} ${route.template}`) ?? 0) > 10,
      ]).toEqual([route.method, route.template, true]);
    }
    console.log(
      `console fuzz (${db}): ${CONSOLE_RUNS[db]} cases over ${routes.length} routes, seed ${SEED}\n` +
        `statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
    );
  });

  function alsoRoutedTo(method: string, pathname: string): Operation | undefined {
    for (const [template, ops] of Object.entries(doc.paths)) {
      const op = ops[method.toLowerCase()];
      const regex = new RegExp('^' + template.replace(/\{[^}]+\}/g, '[^/]+') + '$');
      if (op && regex.test(pathname)) return op;
    }
    return undefined;
  }

  function requestFor(target: Target): fc.Arbitrary<FuzzRequest> {
    const params = target.op.parameters ?? [];
    const pathParams = params.filter((p) => p.in === 'path');
    const queryParams = params.filter((p) => p.in === 'query');
    const bodySchema = target.op.requestBody?.content?.['application/json']?.schema;
    // Bodies that name the seeded site, its two commits and existing scans reach past the lookups.
    const knownOf = (prefix: string, fallback: string) =>
      fc.nat().map((n) => {
        const ids = known.filter((k) => k.startsWith(prefix));
        return ids.length ? ids[n % ids.length] : fallback;
      });
    const overrides: Overrides = {
      siteId: fc.constant('seed-site'),
      sha: fc.constantFrom('a'.repeat(40), 'b'.repeat(40)),
      baseline_sha: fc.constantFrom('a'.repeat(40), 'b'.repeat(40)),
      scan_id: knownOf('scn_', 'scn_none'),
      inherit_overrides_from: knownOf('vpt_', 'vpt_none'),
      criterion: fc.constantFrom('1.1.1', '1.4.3', '2.4.7', '4.1.2', '302.1'),
    };

    const idArb = fc.oneof(
      { weight: 4, arbitrary: fc.nat().map((n) => ({ known: n })) },
      {
        weight: 2,
        arbitrary: fc
          .constantFrom('scn_', 'dep_', 'wvr_', 'vpt_', 'whk_', 'key_', 'msg_')
          .chain((p) => ascii(30).map((s) => p + s)),
      },
      { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '..',
          '.',
          '%2e%2e',
          '%00',
          'a'.repeat(3000),
          'null',
          'undefined',
          '0',
          '-1',
          '%',
          '%ZZ',
        ),
      },
    );
    const queryArb = fc.record(
      Object.fromEntries(
        queryParams.map((p) => [
          p.name,
          fc.oneof(
            {
              weight: 3,
              arbitrary: fromSchema(doc, p.schema).map((v) =>
                typeof v === 'string' ? v : JSON.stringify(v),
              ),
            },
            { weight: 2, arbitrary: ascii(40) },
            { weight: 1, arbitrary: fc.nat().map((n) => ({ known: n })) },
          ),
        ]),
      ),
      { requiredKeys: [] },
    );
    const extraQuery = fc.oneof(
      { weight: 6, arbitrary: fc.constant('') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '&limit=1&limit=2',
          '&cursor[a]=1',
          '&%zz=1',
          '&=&&',
          '&limit=-5',
          '&limit=1e3',
          '&__proto__[x]=1',
        ),
      },
      {
        weight: 1,
        arbitrary: ascii(40).map((s) => '&' + encodeURIComponent(s) + '=' + encodeURIComponent(s)),
      },
    );
    const bodyArb: fc.Arbitrary<{ kind: string; value?: unknown; raw?: string } | undefined> = bodySchema
      ? fc.oneof(
          {
            weight: 5,
            arbitrary: fromSchema(doc, bodySchema, 0, overrides).map((value) => ({ kind: 'valid', value })),
          },
          {
            weight: 5,
            arbitrary: fromSchema(doc, bodySchema, 0, overrides)
              .chain((v) => mutate(v))
              .map((value) => ({ kind: 'mutated', value })),
          },
          {
            weight: 2,
            arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => ({ kind: 'random-json', value })),
          },
          {
            weight: 2,
            arbitrary: fc
              .oneof(
                fc.string({ unit: 'grapheme', maxLength: 80 }),
                fc.constantFrom('{', '{"a":', '[1,]', 'nul', '\u0000', '{"a":1}{"b":2}', ''),
              )
              .map((raw) => ({ kind: 'raw', raw })),
          },
        )
      : fc.oneof(
          { weight: 8, arbitrary: fc.constant(undefined) },
          {
            weight: 1,
            arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => ({ kind: 'unexpected', value })),
          },
        );
    const authArb = fc.oneof(
      { weight: 10, arbitrary: fc.constant('right') },
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          'none',
          'garbage',
          'read-only',
          'other-org',
          'admin-instead',
          'key-instead',
          'x-api-key',
          'lowercase-bearer',
        ),
      },
    );
    const methodArb = fc.oneof(
      { weight: 12, arbitrary: fc.constant(target.method) },
      // OPTIONS is left out: express answers it itself with an undocumented 200 (reported separately).
      { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
    );

    return fc
      .record({
        ids: fc.array(idArb, { minLength: pathParams.length, maxLength: pathParams.length }),
        query: queryArb,
        extraQuery,
        body: bodyArb,
        contentType: contentTypes,
        encoding: encodings,
        auth: authArb,
        method: methodArb,
        idempotencyKey: fc.option(ascii(300), { freq: 4 }),
        requestId: fc.option(ascii(200), { freq: 4 }),
        trailingSlash: fc.boolean(),
      })
      .map((c) => {
        const pick = (v: string | { known: number }) =>
          typeof v === 'string' ? v : known.length ? known[v.known % known.length] : 'none';
        let path = target.template;
        pathParams.forEach((p, i) => {
          path = path.replace(`{${p.name}}`, encodeURIComponent(pick(c.ids[i])));
        });
        if (c.trailingSlash && path.length > 1 && pathParams.length === 0 && c.method === 'GET') path += '/';
        const qs = new URLSearchParams();
        for (const [k, v] of Object.entries(c.query)) qs.set(k, pick(v as string | { known: number }));
        const query = qs.toString() + c.extraQuery;
        if (query) path += '?' + query.replace(/^&/, '');

        const headers: Record<string, string> = {};
        applyAuth(headers, target, c.auth);
        if (c.idempotencyKey !== null) headers['idempotency-key'] = c.idempotencyKey;
        if (c.requestId !== null) headers['x-request-id'] = c.requestId;
        let body: Buffer | undefined;
        if (c.body && c.method !== 'GET') {
          const text = c.body.raw ?? JSON.stringify(c.body.value) ?? 'null';
          body = Buffer.from(text, 'utf8');
          if (c.contentType) headers['content-type'] = c.contentType;
          if (c.encoding === 'gzip') body = gzipSync(body);
          if (c.encoding) headers['content-encoding'] = c.encoding;
        }
        const describe = `${c.method} ${path} auth=${c.auth} ct=${c.contentType} ce=${c.encoding ?? '-'} body(${c.body?.kind ?? 'none'})=${
          body ? (c.body?.raw ?? JSON.stringify(c.body?.value) ?? '').slice(0, 400) : ''
        }`;
        return {
          [fc.toStringMethod]: () => describe,
          target,
          method: c.method,
          path,
          headers,
          body,
          describe,
        };
      });
  }

  function applyAuth(headers: Record<string, string>, target: Target, auth: string): void {
    const right = () => {
      if (target.credential === 'admin') headers['x-admin-token'] = h.adminToken;
      if (target.credential === 'key') headers.authorization = `Bearer ${fullKey}`;
    };
    switch (auth) {
      case 'right':
        return right();
      case 'garbage':
        headers.authorization = 'Bearer a11y_garbage_' + 'x'.repeat(40);
        headers['x-admin-token'] = 'not-the-token';
        return;
      case 'read-only':
        headers.authorization = `Bearer ${readOnlyKey}`;
        return;
      case 'other-org':
        headers.authorization = `Bearer ${otherOrgKey}`;
        return;
      case 'admin-instead':
        headers['x-admin-token'] = h.adminToken;
        return;
      case 'key-instead':
        headers.authorization = `Bearer ${fullKey}`;
        return;
      case 'x-api-key':
        headers['x-api-key'] = fullKey;
        return;
      case 'lowercase-bearer':
        headers.authorization = `bearer   ${fullKey}`;
        return;
    }
  }
});

describe.each(dbKinds)('hostile JSON-LD imports (%s)', (db) => {
  // The default body limit: wide files reach the import's own counts before body_bytes.
  const h = useHarness({ db, org: 'fuzz-import', env: { RATE_LIMIT_PER_MINUTE: '10000000' } });

  beforeAll(async () => {
    const scan = {
      siteId: 'fuzz-site',
      url: 'https://fuzz.example/',
      pages: [{ url: 'https://fuzz.example/' }],
    };
    expect((await h.request('POST', '/api/v1/scans', { key: h.key, body: scan })).status).toBe(201);
  });

  it(`answers ${IMPORT_RUNS[db]} deep and wide WCAG-EM files without a 5xx, within the contract, storing nothing on rejection`, async () => {
    const statuses = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(wcagEmText, async (raw) => {
        const before = await rowCounts(h.db);
        const res = await h.request<{ limit?: string }>(
          'POST',
          '/api/v1/assessments/import?siteId=fuzz-site',
          {
            key: h.key,
            raw,
            headers: { 'content-type': 'application/ld+json' },
          },
        );
        const kind = `${res.status}${res.body.limit ? ` ${res.body.limit}` : ''}`;
        statuses.set(kind, (statuses.get(kind) ?? 0) + 1);
        expect([res.status < 500, raw.slice(0, 300)]).toEqual([true, raw.slice(0, 300)]);
        if (res.status >= 400) expect(await rowCounts(h.db)).toEqual(before);
      }),
      { seed: SEED, numRuns: IMPORT_RUNS[db] },
    );
    console.log(`import fuzz (${db}): ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    // Each limit was met, and files within them were stored.
    expect([...statuses.keys()]).toEqual(
      expect.arrayContaining([
        '201',
        '422 json_depth_per_import',
        '422 results_per_import',
        '422 json_values_per_import',
      ]),
    );
  });
});
