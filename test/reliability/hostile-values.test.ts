import fc from 'fast-check';
import { dbKinds, startHarness, useHarness } from '../helpers/harness.js';
import { fromSchema, type OpenApiDoc, type Operation } from './openapi-arbitrary.js';
import { rowCounts } from './row-counts.js';
import { ALL_SCOPES, seedResources } from './seed-resources.js';

/**
 * PostgreSQL refuses U+0000 in text and values longer than a varchar column; SQLite takes both. So a
 * value that reaches SQL unchecked is a 500 on one database only. Every operation of the OpenAPI
 * document gets NUL and over-long values in each path parameter, query parameter and string field of
 * its body: every answer must be a 4xx (or a success that stored them safely), never a 5xx, and a
 * rejected request stores nothing. CI runs this on PostgreSQL, where it matters.
 */

const kinds = process.env.CI ? (['sqlite', 'postgres'] as const) : dbKinds;
const NUL_VALUES = ['\u0000', 'a\u0000b'];
const LONG = 'a'.repeat(5000);

interface Case {
  method: string;
  path: string;
  body?: unknown;
  label: string;
}

describe.each(kinds)('NUL and over-long values on every operation (%s)', (db) => {
  const h = useHarness({
    db,
    env: { RATE_LIMIT_PER_MINUTE: '10000000', AUTH_FAILURES_PER_MINUTE: '10000000' },
  });
  let doc: OpenApiDoc;
  let key: string;
  let known: string[] = [];

  beforeAll(async () => {
    doc = h.server.service.http.openApiDocument() as OpenApiDoc;
    key = await h.createKey({ org: 'hostile', scopes: ALL_SCOPES });
    known = (await seedResources(h.url, key, doc, 'hostile-site')).ids;
  });

  it('answers every case below 500 and stores nothing when it refuses', async () => {
    const cases: Case[] = [];
    for (const [template, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) cases.push(...casesFor(method, template, op));
    }
    const failures: string[] = [];
    const perOperation = new Map<string, number>();
    for (const c of cases) {
      const before = c.method === 'GET' ? undefined : await rowCounts(h.db);
      const op = doc.paths[templateOf(c.label)]?.[c.method.toLowerCase()];
      const admin = (op?.security ?? []).some((s) => 'AdminToken' in s);
      const send = () =>
        fetch(h.url + c.path, {
          method: c.method,
          headers: {
            ...(admin ? { 'x-admin-token': h.adminToken } : { authorization: `Bearer ${key}` }),
            ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: c.body === undefined ? undefined : JSON.stringify(c.body),
        });
      // The server may close a kept-alive connection after refusing a request whose body it did not
      // read; a client then opens a new one, as fetch does for the retry.
      const res = await send().catch(() => send());
      const text = await res.text();
      perOperation.set(c.label.split(' · ')[0], (perOperation.get(c.label.split(' · ')[0]) ?? 0) + 1);
      if (res.status >= 500) failures.push(`${res.status} ${c.label}: ${text.slice(0, 200)}`);
      if (before && res.status >= 400) {
        const after = await rowCounts(h.db);
        if (JSON.stringify(after) !== JSON.stringify(before)) failures.push(`stored rows on ${c.label}`);
      }
    }
    console.log(
      `hostile values (${db}): ${cases.length} requests over ${perOperation.size} operations, ${failures.length} failures`,
    );
    // Every operation of the document was reached.
    const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(perOperation.size).toBe(operations);
    expect(failures).toEqual([]);
  });

  it('an over-long X-Forwarded-For on a failed sign-in is a 401 and is counted', async () => {
    const limited = await startHarness({ db, env: { AUTH_FAILURES_PER_MINUTE: '3' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${limited.url}/api/v1/keys/me`, {
          headers: { 'x-forwarded-for': `${'9'.repeat(300)}.example`, authorization: 'Bearer nope' },
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  function casesFor(method: string, template: string, op: Operation): Case[] {
    const out: Case[] = [];
    const label = `${method.toUpperCase()} ${template}`;
    const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
    const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
    const fill = (value: (name: string) => string) =>
      template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(value(name)));
    const someKnown = (name: string) =>
      known.find((k) => (name === 'siteId' ? !/^[a-z]{3}_/.test(k) : /^[a-z]{3}_/.test(k))) ?? 'x';
    const validPath = fill(someKnown);
    // Path parameters: NUL alone, after a real id, and over-long.
    for (const p of pathParams) {
      for (const v of [...NUL_VALUES, someKnown(p.name) + '\u0000', LONG]) {
        out.push({
          method: method.toUpperCase(),
          path: fill((n) => (n === p.name ? v : someKnown(n))),
          body: sampleBody(op, 0),
          label: `${label} · path ${p.name}=${JSON.stringify(v.slice(0, 12))}`,
        });
      }
    }
    for (const q of queryParams) {
      for (const v of [...NUL_VALUES, LONG]) {
        out.push({
          method: method.toUpperCase(),
          path: `${validPath}?${new URLSearchParams({ [q.name]: v }).toString()}`,
          body: sampleBody(op, 0),
          label: `${label} · query ${q.name}=${JSON.stringify(v.slice(0, 12))}`,
        });
      }
    }
    // Each string field of a body that otherwise follows the schema.
    for (let sample = 0; sample < 3; sample++) {
      const body = sampleBody(op, sample);
      if (body === undefined) break;
      for (const leaf of stringLeaves(body)) {
        for (const v of [...NUL_VALUES, LONG]) {
          out.push({
            method: method.toUpperCase(),
            path: validPath,
            body: replaceAt(body, leaf, v),
            label: `${label} · body /${leaf.join('/')}=${JSON.stringify(v.slice(0, 12))}`,
          });
        }
      }
    }
    if (out.length === 0) out.push({ method: method.toUpperCase(), path: validPath, label });
    return out;
  }

  function sampleBody(op: Operation, seed: number): unknown {
    const schema = op.requestBody?.content?.['application/json']?.schema;
    if (!schema) return undefined;
    const overrides = {
      siteId: fc.constant('hostile-site'),
      scan_id: fc.constant(known.find((k) => k.startsWith('scn_')) ?? 'scn_x'),
      inherit_overrides_from: fc.constant(known.find((k) => k.startsWith('vpt_')) ?? 'vpt_x'),
    };
    return fc.sample(fromSchema(doc, schema, 0, overrides), { seed: 16 + seed, numRuns: 1 })[0];
  }
});

function templateOf(label: string): string {
  return label.split(' · ')[0].split(' ')[1];
}

function stringLeaves(value: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  if (typeof value === 'string') out.push(prefix);
  else if (value && typeof value === 'object' && out.length < 60) {
    for (const [k, v] of Object.entries(value)) stringLeaves(v, [...prefix, k], out);
  }
  return out;
}

function replaceAt(value: unknown, path: string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = (Array.isArray(value) ? [...(value as unknown[])] : { ...(value as object) }) as Record<
    string,
    unknown
  >;
  copy[path[0]] = replaceAt(copy[path[0]], path.slice(1), replacement);
  return copy;
}
