import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sleep } from './wait.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServerProcessOptions {
  /** Extra environment (limits, LOG_LEVEL, WEBHOOK_*, …). */
  env?: Record<string, string>;
  /** PostgreSQL URL; otherwise the embedded SQLite file under a fresh data dir. */
  databaseUrl?: string;
  /** Reuse a data dir (SQLite file and admin token survive a restart). */
  dataDir?: string;
  /** Milliseconds to wait for /readyz. */
  readyTimeoutMs?: number;
  /** Share one admin token between instances. */
  adminToken?: string;
  /** Run the compiled server (`node build/server/main.js`, as the image does) instead of the TypeScript. */
  compiled?: boolean;
}

/**
 * The real server (`server/main.ts`) as a child process, so a test can SIGKILL it mid-request and
 * start it again on the same data and the same port.
 */
export class ServerProcess {
  readonly adminToken: string;
  readonly dataDir: string;
  /** Every line the process wrote to stdout/stderr, across restarts. */
  readonly logs: string[] = [];
  port = 0;
  starts = 0;
  private child?: ChildProcess;
  private exited?: Promise<number | null>;

  constructor(private readonly options: ServerProcessOptions = {}) {
    this.dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-gate-proc-'));
    this.adminToken = options.adminToken ?? `adm_${randomBytes(24).toString('hex')}`;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return Boolean(this.child && this.child.exitCode === null && this.child.signalCode === null);
  }

  async start(): Promise<void> {
    if (this.running) throw new Error('server process is already running');
    if (!this.port) this.port = await freePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      PORT: String(this.port),
      HOST: '127.0.0.1',
      DATA_DIR: this.dataDir,
      ADMIN_TOKEN: this.adminToken,
      LOG_LEVEL: 'info',
      ...(this.options.databaseUrl ? { DATABASE_URL: this.options.databaseUrl } : {}),
      ...this.options.env,
    };
    // Profiling the server: SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" npm run bench
    const nodeArgs = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const entry = this.options.compiled ? ['build/server/main.js'] : ['--import', 'tsx', 'server/main.ts'];
    const child = spawn(process.execPath, [...nodeArgs, ...entry], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.starts += 1;
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line) this.logs.push(line);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    await this.waitReady(this.options.readyTimeoutMs ?? 60_000);
  }

  private async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) {
        throw new Error(`server exited before it was ready:\n${this.logs.slice(-30).join('\n')}`);
      }
      try {
        const res = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(1000) });
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    throw new Error(`server not ready after ${timeoutMs} ms:\n${this.logs.slice(-30).join('\n')}`);
  }

  /** The last `n` log lines at error level or above (pino JSON), to explain a failed assertion. */
  errorLogs(n = 10): string {
    return this.logs
      .filter((l) => /"level":(5\d|60)/.test(l) || !l.startsWith('{'))
      .slice(-n)
      .join('\n');
  }

  /** SIGKILL: no shutdown hook runs, in-flight requests and transactions are cut where they are. */
  async kill(): Promise<void> {
    if (!this.child || !this.running) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM: the graceful path. Resolves with the exit code. */
  async stop(): Promise<number | null> {
    if (!this.child || !this.running) return this.child?.exitCode ?? null;
    this.child.kill('SIGTERM');
    return this.exited!;
  }

  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }

  /** Kills the process and removes the data dir (unless it was given). */
  async dispose(): Promise<void> {
    // A profiled server must exit normally to write its profile.
    if (process.env.SERVER_NODE_ARGS && this.running) {
      const timer = setTimeout(() => void this.kill(), 15_000);
      await this.stop();
      clearTimeout(timer);
    }
    await this.kill();
    if (!this.options.dataDir) fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Creates an API key through the admin endpoint. */
  async createKey(org: string, scopes?: string[]): Promise<{ id: string; key: string }> {
    const res = await fetch(`${this.url}/api/v1/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': this.adminToken },
      body: JSON.stringify({ name: `rel-${org}`, org, scopes }),
    });
    if (res.status !== 201) throw new Error(`createKey: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string; key: string };
  }
}

export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const proc = new ServerProcess(options);
  await proc.start();
  return proc;
}

/** A port that was free a moment ago (the server binds it itself, so a restart reuses it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface FreshPgDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new, empty PostgreSQL database on the server of `baseUrl` (the server process uses its public schema). */
export async function createPgDatabase(baseUrl: string, prefix = 'a11y_rel'): Promise<FreshPgDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
