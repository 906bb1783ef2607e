import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Knex } from 'knex';
import type { Probot } from 'probot';
import { createLogger, loadConfig } from '../../api/index.js';
import { startServer, type RunningServer } from '../../server/host.js';
import { ContractChecker } from './contract.js';
import { inCI } from './requirements.js';

export type DbKind = 'sqlite' | 'postgres';

const pgUrl = process.env.TEST_DATABASE_URL;

/**
 * SQLite always; PostgreSQL when TEST_DATABASE_URL is set, and always under CI, where a missing
 * TEST_DATABASE_URL fails the PostgreSQL variants (startHarness refuses) instead of skipping them. Elsewhere
 * jest.global-setup.js says once per run that they are skipped.
 */
export const dbKinds: DbKind[] = pgUrl || inCI ? ['sqlite', 'postgres'] : ['sqlite'];

export interface HarnessOptions {
  db?: DbKind;
  /** Extra environment for loadConfig (limits, WEBHOOK_ALLOW_PRIVATE, …). */
  env?: Record<string, string>;
  probot?: Probot;
  startJobs?: boolean;
  /** Capture log lines at this level (default: silent). */
  logLevel?: 'info' | 'debug' | 'trace' | 'warn';
  /** Reuse a data dir / PostgreSQL schema, e.g. to restart "the same" server. */
  dataDir?: string;
  schema?: string;
}

export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body bytes; sent as is (set content-type yourself). */
  raw?: string | Buffer;
  key?: string;
  admin?: boolean;
  headers?: Record<string, string>;
}

export interface Harness {
  url: string;
  server: RunningServer;
  db: Knex;
  adminToken: string;
  dataDir: string;
  schema?: string;
  logs: string[];
  contract: ContractChecker;
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  /** Creates an API key through the admin endpoint and returns the secret key string. */
  createKey(options?: {
    org?: string;
    scopes?: string[];
    name?: string;
    expires_at?: string;
  }): Promise<string>;
  /** Stops the server (optionally keeping its database for a restart). */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const kind = options.db ?? 'sqlite';
  if (kind === 'postgres' && !pgUrl) throw new Error('TEST_DATABASE_URL is required for PostgreSQL tests');
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-gate-test-'));
  const schema =
    kind === 'postgres'
      ? (options.schema ?? `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`)
      : undefined;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: options.logLevel ?? 'silent',
    WEBHOOK_WORKER: 'false',
    ...(kind === 'postgres' ? { DATABASE_URL: pgUrl } : {}),
    ...options.env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const logger = createLogger(config, sink);
  const server = await startServer({
    config,
    logger,
    schema,
    probot: options.probot,
    startJobs: options.startJobs ?? false,
  });
  const adminToken = server.service.adminToken;
  const contract = new ContractChecker(server.service.http.openApiDocument() as never);

  async function request<T>(
    method: string,
    urlPath: string,
    o: RequestOptions = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    if (o.admin) headers['x-admin-token'] = adminToken;
    let body: string | Buffer | undefined = o.raw;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const send = () => fetch(server.url + urlPath, { method, headers, body });
    // A reset before any answer on a reused keep-alive connection (the server closed it as idle while
    // the client picked it) is the transport's race, not an answer: sent once more on a new connection.
    // A request that makes the server drop the connection is dropped again and fails the test.
    const res = await send().catch((err: Error) => {
      if (!/ECONNRESET|socket/i.test(String((err.cause as Error | undefined)?.message))) throw err;
      return send();
    });
    const text = await res.text();
    const type = res.headers.get('content-type');
    let parsed: unknown = text;
    if (type?.includes('json') && text) parsed = JSON.parse(text);
    if (!text) parsed = undefined;
    contract.check(method, urlPath, res.status, type, parsed);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  return {
    url: server.url,
    server,
    db: server.service.ctx.db,
    adminToken,
    dataDir,
    schema,
    logs,
    contract,
    request,
    async createKey(k = {}) {
      const res = await request('POST', '/api/v1/keys', {
        admin: true,
        body: {
          name: k.name ?? 'test key',
          org: k.org ?? 'default',
          scopes: k.scopes,
          expires_at: k.expires_at,
        },
      });
      if (res.status !== 201) throw new Error(`createKey: ${res.status} ${res.text}`);
      return (res.body as { key: string }).key;
    },
    async close(c = {}) {
      if (schema && !c.keepData) {
        await server.service.ctx.db.raw('drop schema if exists ?? cascade', [schema]).catch(() => undefined);
      }
      await server.close();
      if (!c.keepData && !options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface UsedHarness extends Harness {
  /** A key of the `org` given to useHarness (default scopes), made before the suite's own hooks run. */
  readonly key: string;
}

/**
 * The harness of one describe block: started in a beforeAll (with a key of `org` when one is given)
 * and closed in an afterAll, so a suite declares it in one line. Call it in the describe body; the
 * result is usable inside hooks and tests (touching it before the harness started throws).
 */
export function useHarness(options: HarnessOptions & { org?: string } = {}): UsedHarness {
  const { org, ...harnessOptions } = options;
  let started: Harness | undefined;
  let key: string | undefined;
  beforeAll(async () => {
    started = await startHarness(harnessOptions);
    if (org !== undefined) key = await started.createKey({ org });
  });
  afterAll(async () => {
    await started?.close();
  });
  return new Proxy({} as UsedHarness, {
    get(_target, property): unknown {
      if (!started) throw new Error('useHarness: the harness is used before its beforeAll started it');
      if (property === 'key') {
        if (key === undefined) throw new Error('useHarness: no org was given, so there is no key');
        return key;
      }
      // The harness's methods are closures (no `this`), and `db` is a knex function with properties:
      // both are handed out as they are.
      return Reflect.get(started, property) as unknown;
    },
  });
}
