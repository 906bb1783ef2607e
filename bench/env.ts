import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createLogger, loadConfig } from '../api/index.js';
import { startServer, type RunningServer } from '../server/host.js';
import { seededRandom } from '../api/domain/vpat/assessments/sample.js';
import { createPgDatabase, ServerProcess } from '../test/helpers/server-process.js';

export type BenchKind = 'sqlite' | 'postgres';

export interface BenchTarget {
  kind: BenchKind;
  /** PostgreSQL URL when kind is postgres. */
  databaseUrl?: string;
}

export interface BenchSuite {
  name: string;
  /** Prints its own table and returns its figures (they go into --json). */
  run(target: BenchTarget): Promise<Record<string, unknown>>;
}

export function benchTargets(): BenchTarget[] {
  const pg = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  return [{ kind: 'sqlite' }, ...(pg ? [{ kind: 'postgres' as const, databaseUrl: pg }] : [])];
}

export interface BenchServer {
  server: RunningServer;
  url: string;
  key: string;
  close(): Promise<void>;
}

export function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/**
 * Each timed step once to warm its path (query plans, JIT, caches), then all of them in turn `rounds` times,
 * so drift hits all alike; the times of each step, in the order given.
 */
export async function alternately(rounds: number, steps: Array<() => Promise<number>>): Promise<number[][]> {
  for (const step of steps) await step();
  const times = steps.map(() => [] as number[]);
  for (let i = 0; i < rounds; i++) for (const [k, step] of steps.entries()) times[k].push(await step());
  return times;
}

/** POSTs a JSON body with the bench's key; anything but 201 throws with the answer, which a suite cannot go on without. */
export function poster(bench: BenchServer): <T>(path: string, body: string) => Promise<T & { id: string }> {
  const headers = { authorization: `Bearer ${bench.key}`, 'content-type': 'application/json' };
  return async <T>(path: string, body: string) => {
    const res = await fetch(bench.url + path, { method: 'POST', headers, body });
    const parsed = (await res.json()) as T & { id: string };
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(parsed).slice(0, 500)}`);
    return parsed;
  };
}

/** A real server on loopback with a fresh database (a temp SQLite file or a fresh PostgreSQL schema). */
export async function startBenchServer(
  target: BenchTarget,
  env: Record<string, string> = {},
): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-gate-bench-'));
  const schema = target.kind === 'postgres' ? `bench_${Date.now().toString(36)}` : undefined;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '100000000',
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
    ...env,
  });
  const server = await startServer({ config, logger: createLogger(config), schema, startJobs: false });
  const res = await fetch(`${server.url}/api/v1/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': server.service.adminToken },
    body: JSON.stringify({ name: 'bench', org: 'bench' }),
  });
  const key = ((await res.json()) as { key: string }).key;
  return {
    server,
    url: server.url,
    key,
    async close() {
      if (schema) await server.service.ctx.db.raw('drop schema if exists ?? cascade', [schema]);
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Deterministic PRNG (mulberry32) so every run generates the same data. */
export const seeded = seededRandom;

export function table(rows: Array<Record<string, string | number>>): void {
  console.table(rows);
}

/** The real server as a child process (what production runs), on a fresh SQLite file or PostgreSQL database. */
export interface BenchProcess {
  url: string;
  key: string;
  pid: number;
  /** The fresh PostgreSQL database's URL (a second instance can share it); undefined on SQLite. */
  databaseUrl?: string;
  /** Peak resident set size of the server process so far (Linux), in MB. */
  peakRssMb(): number | undefined;
  close(): Promise<void>;
}

export async function startBenchProcess(
  target: BenchTarget,
  env: Record<string, string> = {},
): Promise<BenchProcess> {
  const database = target.databaseUrl ? await createPgDatabase(target.databaseUrl, 'a11y_bench') : undefined;
  const proc = new ServerProcess({
    databaseUrl: database?.url,
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000', WEBHOOK_WORKER: 'false', ...env },
  });
  try {
    await proc.start();
  } catch (err) {
    await database?.drop();
    throw err;
  }
  const { key } = await proc.createKey('bench');
  return {
    url: proc.url,
    key,
    pid: proc.pid!,
    databaseUrl: database?.url,
    peakRssMb() {
      try {
        const status = fs.readFileSync(`/proc/${proc.pid}/status`, 'utf8');
        return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) / 1024);
      } catch {
        return undefined;
      }
    },
    async close() {
      await proc.stop();
      await proc.dispose();
      await database?.drop();
    },
  };
}

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called for every request: returns a fresh body (e.g. a new sha per scan). */
  nextBody?: () => string;
}

export interface LoadResult {
  requests: number;
  req_per_s: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  non_2xx: number;
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
// autocannon is CommonJS without bundled types.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** `connections` concurrent clients hammering one request for `seconds` (autocannon). */
export async function load(
  url: string,
  request: LoadRequest,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: request.body ?? request.nextBody?.(),
        ...(request.nextBody
          ? { setupRequest: (req: Record<string, unknown>) => ({ ...req, body: request.nextBody!() }) }
          : {}),
      },
    ],
  });
  return {
    requests: result.requests.total,
    req_per_s: Math.round(result.requests.total / seconds),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non_2xx: result.non2xx,
  };
}
