import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dbKinds } from '../helpers/harness.js';
import { createPgDatabase, ServerProcess, type FreshPgDatabase } from '../helpers/server-process.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { sleep } from '../helpers/wait.js';

/**
 * The server as the image runs it (compiled, `node build/server/main.js`), checked with the image's own
 * HEALTHCHECK command, then stopped with SIGTERM while six clients send scans and the webhook worker has
 * deliveries in flight (the receiver answers after 800 ms). Nothing may be lost: every request either
 * got its answer (in-flight ones are drained) or was refused before any work (503 or a refused
 * connection); every acknowledged scan is there after a restart and nothing else is; every delivery the
 * receiver answered was recorded, so none is sent twice.
 */

const CLIENTS = 6;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The command of the Dockerfile's HEALTHCHECK, run as the container runtime would. */
function healthcheck(port: number): number | null {
  const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const m = /HEALTHCHECK[^\n]*\\\n\s*CMD node -e "([^"]+)"/.exec(dockerfile);
  if (!m) throw new Error('the Dockerfile has no HEALTHCHECK CMD node -e "…"');
  return spawnSync(process.execPath, ['-e', m[1]], { env: { PORT: String(port) }, timeout: 10_000 }).status;
}

function scanBody(client: number, n: number) {
  return JSON.stringify({
    url: 'https://drain.example/',
    siteId: 'drain',
    sha: (client * 1_000_000 + n).toString(16).padStart(40, '0'),
    pages: Array.from({ length: 20 }, (_, p) => ({
      url: `/p/${p}`,
      issues: [{ rule: 'image-alt', impact: 'critical', selector: `#c${client}-${n}-${p}` }],
    })),
  });
}

interface Outcome {
  idem: string;
  status?: number;
  id?: string;
  error?: string;
  sentAt: number;
  doneAt: number;
}

async function client(url: string, key: string, c: number, out: Outcome[]): Promise<void> {
  for (let n = 0; ; n++) {
    const o: Outcome = { idem: `c${c}-${n}`, sentAt: Date.now(), doneAt: 0 };
    out.push(o);
    try {
      const res = await fetch(`${url}/api/v1/scans`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': o.idem,
        },
        body: scanBody(c, n),
      });
      o.status = res.status;
      const body = (await res.json()) as { id?: string };
      if (res.status === 201) o.id = body.id;
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause;
      o.error = cause?.code ?? String(err);
    }
    o.doneAt = Date.now();
    if (o.error || o.status === 503) return;
  }
}

async function countScans(server: ServerProcess, key: string): Promise<number> {
  let next: string | null = `${server.url}/api/v1/scans?siteId=drain&limit=100`;
  let n = 0;
  while (next) {
    const res: Response = await fetch(next, { headers: { authorization: `Bearer ${key}` } });
    n += ((await res.json()) as { data: unknown[] }).data.length;
    next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
    if (next && next.startsWith('/')) next = server.url + next;
  }
  return n;
}

beforeAll(() => {
  // The compiled server under build/, as `npm ci` (its prepare script) and `npm run typecheck` leave it: one
  // incremental compile, so after those this only checks that nothing changed.
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (tsc.status !== 0) throw new Error(`tsc failed:\n${tsc.stdout}${tsc.stderr}`);
}, 300_000);

describe.each(dbKinds)('SIGTERM under load, compiled server (%s)', (db) => {
  test('drains in-flight requests and webhook deliveries; loses nothing; HEALTHCHECK follows it', async () => {
    let database: FreshPgDatabase | undefined;
    const receiver = await startReceiver({ delayMs: 800 });
    const env = {
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
      SHUTDOWN_TIMEOUT_MS: '20000',
    };
    const servers: ServerProcess[] = [];
    try {
      if (db === 'postgres') database = await createPgDatabase(process.env.TEST_DATABASE_URL!);
      const server = new ServerProcess({ compiled: true, databaseUrl: database?.url, env });
      servers.push(server);
      await server.start();
      expect(healthcheck(server.port)).toBe(0);
      const { key } = await server.createKey('drain');
      const sub = await fetch(`${server.url}/api/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${receiver.url}/hook`, events: ['scan.created'] }),
      });
      receiver.secrets.set('*', ((await sub.json()) as { secret: string }).secret);

      const outcomes: Outcome[] = [];
      const clients = Array.from({ length: CLIENTS }, (_, c) => client(server.url, key, c, outcomes));
      await receiver.waitUntil(
        () => receiver.received.length >= 3 && receiver.answered < receiver.received.length,
        60_000,
      );
      const stoppedAt = Date.now();
      const inFlightRequests = outcomes.filter((o) => !o.doneAt).length;
      const inFlightDeliveries = receiver.received.length - receiver.answered;
      const exitCode = await server.stop();
      await Promise.all(clients);
      expect(exitCode).toBe(0);
      expect(healthcheck(server.port)).not.toBe(0);

      const acked = outcomes.filter((o) => o.status === 201);
      const drained = acked.filter((o) => o.sentAt < stoppedAt && o.doneAt > stoppedAt);
      const refused = outcomes.filter((o) => o.status !== 201);
      console.log(
        `graceful shutdown (${db}): ${outcomes.length} requests from ${CLIENTS} clients, ${inFlightRequests} in flight ` +
          `at SIGTERM, ${drained.length} of them answered 201 after it; ${acked.length} acknowledged; refused: ` +
          `${JSON.stringify(refused.map((o) => [o.status ?? o.error, o.sentAt - stoppedAt]))} (ms after SIGTERM); ` +
          `${inFlightDeliveries} webhook deliveries in flight`,
      );
      // The stop really met work in progress, or this proves nothing.
      expect(inFlightRequests).toBeGreaterThan(0);
      expect(inFlightDeliveries).toBeGreaterThan(0);
      expect(drained.length).toBeGreaterThan(0);
      // Refused only before any work: a 503, or a connection the closed listener refused, or a keep-alive
      // connection the server closed as idle while the client was writing a request on it (HTTP's own
      // race: the server never read that request). The client sees the last as the socket closed
      // (UND_ERR_SOCKET) or, when the request's bytes had reached the server unread, as a reset
      // (ECONNRESET); a request written just before the SIGTERM can meet it too. That none of these did
      // any work, the count of stored scans below proves: it equals the acknowledged ones.
      for (const o of refused) {
        const beforeWork = [503, 'ECONNREFUSED', 'UND_ERR_SOCKET', 'ECONNRESET'].includes(
          o.status ?? o.error!,
        );
        expect([o.idem, beforeWork]).toEqual([o.idem, true]);
      }

      const again = new ServerProcess({
        compiled: true,
        databaseUrl: database?.url,
        dataDir: server.dataDir,
        adminToken: server.adminToken,
        env,
      });
      servers.push(again);
      await again.start();
      for (const o of acked) {
        const res = await fetch(`${again.url}/api/v1/scans/${o.id}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect([o.idem, res.status]).toEqual([o.idem, 200]);
      }
      expect(await countScans(again, key)).toBe(acked.length);
      const ids = new Set(acked.map((o) => o.id!));
      const delivered = await receiver.waitUntil(
        () => [...ids].every((id) => receiver.verifiedDataIds(true).has(id)),
        60_000,
      );
      expect(delivered).toBe(true);
      // Deliveries answered during the drain were recorded: nothing is sent twice.
      expect(receiver.duplicates()).toBe(0);
    } finally {
      for (const s of servers.reverse()) await s.dispose();
      await receiver.close();
      await database?.drop();
      await sleep(0);
    }
  }, 240_000);
});
