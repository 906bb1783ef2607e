import fs from 'node:fs';
import net from 'node:net';
import { createGzip } from 'node:zlib';
import type { Problem } from '../helpers/api-types.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import type { OpenApiDoc } from './openapi-arbitrary.js';
import { ALL_SCOPES } from './seed-resources.js';
import { sleep } from '../helpers/wait.js';

/**
 * Bodies that try to exhaust the server (too large, too deep, gzip bombs) and clients that try to
 * hold it (slow headers, slow bodies), against the real server process so its memory can be read.
 */

const BODY_LIMIT_MB = 2;

/** Peak resident set size of a process, from the kernel (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1]);
  return Math.round(kb / 1024);
}

/** `{"x":"aaaa…"}` of `mb` megabytes, gzipped in a stream (never held uncompressed). */
async function gzipBomb(mb: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  gzip.write('{"x":"');
  for (let i = 0; i < mb; i++) {
    if (!gzip.write(chunk)) await new Promise((r) => gzip.once('drain', r));
  }
  gzip.end('"}');
  await done;
  return Buffer.concat(out);
}

describe('hostile bodies and slow clients (real server process)', () => {
  let server: ServerProcess;
  let key: string;
  let bodyOps: Array<{ method: string; path: string; credential: 'admin' | 'key' }>;

  beforeAll(async () => {
    server = await startServerProcess({
      env: {
        BODY_LIMIT_MB: String(BODY_LIMIT_MB),
        HEADERS_TIMEOUT_MS: '1000',
        REQUEST_TIMEOUT_MS: '3000',
        RATE_LIMIT_PER_MINUTE: '100000',
        LOG_LEVEL: 'warn',
      },
    });
    // Every scope: a route refuses a key without its scope before it reads the body.
    key = (await server.createKey('limits', ALL_SCOPES)).key;
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as OpenApiDoc;
    bodyOps = [];
    for (const [template, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!op.requestBody) continue;
        const admin = (op.security ?? []).some((s) => 'AdminToken' in s);
        // Path parameters get a syntactically valid id; the body is read before the id is looked up.
        const path = template.replace('{fingerprint}', 'f'.repeat(64)).replace(/\{[^}]+\}/g, 'limits-site');
        bodyOps.push({ method: method.toUpperCase(), path, credential: admin ? 'admin' : 'key' });
      }
    }
  }, 120_000);

  afterAll(async () => {
    await server?.dispose();
  });

  function auth(credential: 'admin' | 'key'): Record<string, string> {
    return credential === 'admin'
      ? { 'x-admin-token': server.adminToken }
      : { authorization: `Bearer ${key}` };
  }

  async function send(
    op: (typeof bodyOps)[number],
    body: Buffer | string,
    headers: Record<string, string> = {},
  ) {
    const res = await fetch(server.url + op.path, {
      method: op.method,
      headers: { 'content-type': 'application/json', ...auth(op.credential), ...headers },
      body,
    });
    const text = await res.text();
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      // Only the refusals' bodies are read (problem+json); other answers are checked by status alone.
      json: text ? (JSON.parse(text) as Problem) : undefined,
    };
  }

  it('every endpoint with a body answers 413 payload_too_large to an oversized body, sized or chunked', async () => {
    expect(bodyOps.length).toBeGreaterThan(0);
    const big = JSON.stringify({ x: 'a'.repeat((BODY_LIMIT_MB + 1) * 1024 * 1024) });
    for (const op of bodyOps) {
      const sized = await send(op, big);
      expect([op.path, sized.status, sized.json?.code]).toEqual([op.path, 413, 'payload_too_large']);
      expect(sized.type).toMatch(/^application\/problem\+json/);
      // No Content-Length: the limit must hold on the streamed bytes too.
      const stream = new ReadableStream({
        start(c) {
          for (let i = 0; i < BODY_LIMIT_MB + 1; i++)
            c.enqueue(new TextEncoder().encode('a'.repeat(1024 * 1024)));
          c.close();
        },
      });
      const res = await fetch(server.url + op.path, {
        method: op.method,
        headers: { 'content-type': 'application/json', ...auth(op.credential) },
        body: stream,
        duplex: 'half',
      });
      expect([op.path, res.status]).toEqual([op.path, 413]);
      await res.text();
    }
  });

  it('deeply nested JSON is refused (413 above the limit, 4xx below it) and the server stays up', async () => {
    const depth = 200_000;
    const tooDeepAndBig = '{"a":'.repeat(depth * 2) + '1' + '}'.repeat(depth * 2); // ~2.4 MB
    const deep = '['.repeat(depth) + ']'.repeat(depth); // 400 KB, within the limit
    for (const op of bodyOps) {
      expect((await send(op, tooDeepAndBig)).status).toBe(413);
      const r = await send(op, deep);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      // Deep nesting inside every property the endpoint knows about.
      const nested = `{"siteId":${deep},"url":${deep},"pages":${deep},"name":${deep},"events":${deep},"product":${deep}}`;
      const n = await send(op, nested);
      expect([op.path, n.status < 500]).toEqual([op.path, true]);
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('gzip bombs (512 MB inflated from about 0.5 MB) get 413 without the server growing by more than the limit allows', async () => {
    const bomb = await gzipBomb(512);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const op = bodyOps[0];
    const before = peakRssMb(server.pid!);
    const results = await Promise.all(
      Array.from({ length: 3 }, () => send(op, bomb, { 'content-encoding': 'gzip' })),
    );
    for (const r of results) expect([r.status, r.json?.code]).toEqual([413, 'payload_too_large']);
    // Without credentials nothing is inflated at all.
    const anon = await fetch(server.url + op.path, {
      method: op.method,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: bomb,
    });
    expect(anon.status).toBe(401);
    await anon.text();
    const after = peakRssMb(server.pid!);
    console.log(`gzip bomb: ${bomb.length} bytes → 512 MB; server peak RSS ${before} MB → ${after} MB`);
    // Three concurrent bombs may each hold up to the body limit (and a copy or two) while inflating.
    expect(after - before).toBeLessThan(150);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  /** Opens a raw connection and trickles `text` one byte at a time; resolves when the server hangs up. */
  function trickle(
    text: string,
    everyMs: number,
    prefix = '',
  ): Promise<{ closedAfterMs: number; closedAt: number; reply: string }> {
    return new Promise((resolve) => {
      const started = Date.now();
      let reply = '';
      let i = 0;
      let timer: NodeJS.Timeout | undefined;
      // The trickle starts once the prefix is written: a byte of it sent before the request line
      // would make the request unparseable (400) instead of slow.
      const socket = net.connect(server.port, '127.0.0.1', () => {
        socket.write(prefix);
        timer = setInterval(() => {
          if (i < text.length && !socket.destroyed) socket.write(text[i++]);
        }, everyMs);
      });
      socket.on('data', (d) => (reply += d.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ closedAfterMs: Date.now() - started, closedAt: Date.now(), reply });
      });
      // Safety net so a broken server cannot hang the suite.
      setTimeout(() => socket.destroy(), 20_000).unref();
    });
  }

  it('slow clients cannot hold the server: slow headers hit the header timeout, slow bodies the request timeout', async () => {
    const slowHeaders = Array.from({ length: 40 }, () =>
      trickle(`GET /api/v1 HTTP/1.1\r\nHost: x\r\nX-Slow: ${'z'.repeat(200)}\r\n\r\n`, 100),
    );
    const body = JSON.stringify({ name: 'slow', org: 'slow' }).padEnd(5000, ' ');
    const slowBodies = Array.from({ length: 10 }, () =>
      trickle(
        body,
        20,
        `POST /api/v1/keys HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `X-Admin-Token: ${server.adminToken}\r\nContent-Length: ${body.length}\r\n\r\n`,
      ),
    );
    // While they trickle, normal clients are served promptly.
    await sleep(300);
    const t0 = Date.now();
    for (let i = 0; i < 10; i++) expect((await fetch(`${server.url}/api/v1`)).status).toBe(200);
    const normalDone = Date.now();
    const servedMs = normalDone - t0;

    const headerResults = await Promise.all(slowHeaders);
    const bodyResults = await Promise.all(slowBodies);
    const maxHeader = Math.max(...headerResults.map((r) => r.closedAfterMs));
    const maxBody = Math.max(...bodyResults.map((r) => r.closedAfterMs));
    console.log(
      `slow clients: 40 slow-header connections closed after ≤ ${maxHeader} ms (timeout 1000 ms), ` +
        `10 slow-body connections after ≤ ${maxBody} ms (timeout 3000 ms); 10 normal requests took ${servedMs} ms`,
    );
    // Closed after the configured timeouts and long before the trickle would have finished (24 s
    // for the headers, 100 s for the bodies); the bounds are loose because CI machines are busy.
    expect(maxHeader).toBeLessThan(8000);
    for (const r of headerResults) expect(r.reply === '' || r.reply.startsWith('HTTP/1.1 408')).toBe(true);
    expect(Math.min(...headerResults.map((r) => r.closedAfterMs))).toBeGreaterThanOrEqual(900);
    expect(maxBody).toBeLessThan(15000);
    expect(Math.min(...bodyResults.map((r) => r.closedAfterMs))).toBeGreaterThan(2000);
    // Normal clients were served while every slow connection was still being held open, not after
    // the slow ones had timed out.
    for (const r of [...headerResults, ...bodyResults]) expect(r.closedAt).toBeGreaterThan(normalDone);
  });
});
