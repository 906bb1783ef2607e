import { randomBytes } from 'node:crypto';
import { createPgDatabase, ServerProcess, type FreshPgDatabase } from '../helpers/server-process.js';
import type { CreatedScan, CreatedWebhook, ScanDetail } from '../helpers/api-types.js';
import { type DeployEvent } from '../../core/gate/deploy-event.js';
import { describeWith, postgres } from '../helpers/requirements.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { sleep } from '../helpers/wait.js';

/**
 * Two instances of the server on one PostgreSQL database, no proxy in front: clients alternate between
 * them. Ingest, gate, webhook delivery, revocation and rate limits must behave as with one instance.
 */

const pgUrl = process.env.TEST_DATABASE_URL;
const RATE = 30;
const AUTH_FAILURES = 8;

describeWith(postgres, 'two instances on one PostgreSQL', () => {
  let database: FreshPgDatabase;
  let instances: ServerProcess[];
  let receiver: Receiver;
  let paths: Record<string, object>;
  const adminToken = `adm_${randomBytes(24).toString('hex')}`;

  beforeAll(async () => {
    database = await createPgDatabase(pgUrl!);
    receiver = await startReceiver({ delayMs: 20 });
    const env = {
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: String(RATE),
      AUTH_FAILURES_PER_MINUTE: String(AUTH_FAILURES),
      WEBHOOK_WORKER: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    };
    instances = [0, 1].map(() => new ServerProcess({ databaseUrl: database.url, env, adminToken }));
    // Both at once: the migrations must not trip over each other.
    await Promise.all(instances.map((i) => i.start()));
    paths = (
      (await (await fetch(`${instances[0].url}/api/v1/openapi.json`)).json()) as {
        paths: Record<string, object>;
      }
    ).paths;
  }, 120_000);

  afterAll(async () => {
    for (const i of instances ?? []) await i.dispose();
    await receiver?.close();
    await database?.drop();
  });

  const at = (n: number) => instances[n % 2];
  /** A request to instance n % 2; its answer read as T (the body is absent when the answer has none). */
  async function call<T = unknown>(n: number, method: string, path: string, key?: string, body?: unknown) {
    const res = await fetch(at(n).url + path, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : { 'x-admin-token': adminToken }),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
  }

  /** Fixed one-minute windows: start a counting test early in a window so it cannot straddle two. */
  async function freshWindow(): Promise<void> {
    const intoMinute = (Date.now() / 1000) % 60;
    if (intoMinute > 45) await sleep((61 - intoMinute) * 1000);
  }

  it('the per-key rate limit holds across both instances', async () => {
    const { key } = await at(0).createKey('rl');
    await freshWindow();
    const statuses: number[] = [];
    for (let n = 0; n < RATE * 2; n++) statuses.push((await call(n, 'GET', '/api/v1/keys/me', key)).status);
    const ok = statuses.filter((s) => s === 200).length;
    const limited = statuses.filter((s) => s === 429).length;
    console.log(
      `two instances: ${RATE * 2} alternating requests with a limit of ${RATE}/min → ${ok} × 200, ${limited} × 429`,
    );
    expect(ok).toBe(RATE);
    expect(limited).toBe(RATE);
  });

  it('a key revoked on one instance stops working on the other at once', async () => {
    const created = await at(0).createKey('revoke');
    expect((await call(1, 'GET', '/api/v1/keys/me', created.key)).status).toBe(200);
    expect((await call(0, 'DELETE', `/api/v1/keys/${created.id}`)).status).toBe(204);
    expect((await call(1, 'GET', '/api/v1/keys/me', created.key)).status).toBe(401);
  });

  it('scans ingested through either instance read back complete through the other; gates agree', async () => {
    for (const path of ['/api/v1/scans', '/api/v1/deploy/trigger', '/api/v1/webhooks'])
      expect(Object.keys(paths)).toContain(path);
    // Four keys of one org (each a client with its own budget, well under the limit), created on
    // both instances.
    const keys = await Promise.all([0, 1, 2, 3].map((i) => at(i).createKey('two-org')));
    let webhook: { id: string } | undefined;
    if (paths['/api/v1/webhooks']) {
      const res = await call<CreatedWebhook>(0, 'POST', '/api/v1/webhooks', keys[0].key, {
        url: `${receiver.url}/hook`,
        events: ['scan.created', 'deploy.completed'],
      });
      expect(res.status).toBe(201);
      receiver.secrets.set('*', res.body.secret);
      webhook = res.body;
    }
    const scans: Array<{ id: string; issues: number; sha: string }> = [];
    await Promise.all(
      Array.from({ length: 24 }, async (_, n) => {
        const sha = (0xabc000 + n).toString(16).padStart(40, '0');
        const issues = n % 7;
        const res = await call<CreatedScan>(n, 'POST', '/api/v1/scans', keys[n % 4].key, {
          url: 'https://two.example/',
          siteId: 'two-site',
          sha,
          branch: n < 12 ? 'main' : 'feature',
          pages: [
            {
              url: 'https://two.example/',
              issues: Array.from({ length: issues }, (_, k) => ({
                rule: 'image-alt',
                impact: 'critical',
                selector: `img#i${k}`,
              })),
            },
          ],
        });
        if (res.status !== 201) {
          throw new Error(
            `scan answered ${res.status} ${JSON.stringify(res.body)}\n${instances.map((i) => i.errorLogs()).join('\n')}`,
          );
        }
        scans.push({ id: res.body.id, issues, sha });
      }),
    );
    for (const [n, s] of scans.entries()) {
      const res = await call<ScanDetail>(n + 1, 'GET', `/api/v1/scans/${s.id}`, keys[1 + (n % 3)].key);
      expect([res.status, res.body.summary?.issues]).toEqual([200, s.issues]);
    }
    let deploys = 0;
    if (paths['/api/v1/deploy/trigger']) {
      const head = scans.find((s) => s.issues > 0 && parseInt(s.sha, 16) - 0xabc000 >= 12)!;
      const results = await Promise.all(
        [0, 1, 2, 3].map((n) =>
          call<DeployEvent>(n, 'POST', '/api/v1/deploy/trigger', keys[n].key, {
            siteId: 'two-site',
            sha: head.sha,
          }),
        ),
      );
      deploys = results.length;
      for (const r of results) {
        if (r.status !== 201) {
          throw new Error(
            `trigger answered ${r.status} ${JSON.stringify(r.body)}\n${instances.map((i) => i.errorLogs()).join('\n')}`,
          );
        }
      }
      expect(new Set(results.map((r) => r.body.passed)).size).toBe(1);
      expect(new Set(results.map((r) => r.body.scan_id)).size).toBe(1);
      for (const [n, r] of results.entries()) {
        const again = await call<DeployEvent>(
          n + 1,
          'GET',
          `/api/v1/deploy/${r.body.id}`,
          keys[(n + 1) % 4].key,
        );
        expect([again.status, again.body.passed]).toEqual([200, r.body.passed]);
      }
    }
    if (webhook) {
      const expected = scans.length + deploys;
      const done = await receiver.waitUntil(() => receiver.verifiedIds().size >= expected, 60_000);
      console.log(
        `two instances: ${expected} events → ${receiver.verifiedIds().size} delivered and verified, ` +
          `${receiver.duplicates()} duplicates, ${receiver.received.filter((r) => !r.verified).length} bad signatures`,
      );
      expect(done).toBe(true);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      // No delivery failed and no worker died, so FOR UPDATE SKIP LOCKED must hand each delivery to
      // exactly one of the two workers: a duplicate here is a claiming race, not at-least-once.
      expect(receiver.duplicates()).toBe(0);
    }
  }, 150_000);

  // Last: once the address is blocked, the admin calls of other tests from it would be refused too.
  it('the per-IP limit on failed authentications holds across both instances', async () => {
    await freshWindow();
    const statuses: number[] = [];
    for (let n = 0; n < AUTH_FAILURES * 3; n++) {
      const guess = `a11y_${randomBytes(6).toString('hex')}_${randomBytes(24).toString('hex')}`;
      statuses.push((await call(n, 'GET', '/api/v1/keys/me', guess)).status);
    }
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(AUTH_FAILURES);
    expect(statuses.slice(-AUTH_FAILURES)).toEqual(Array(AUTH_FAILURES).fill(429));
  });
});
