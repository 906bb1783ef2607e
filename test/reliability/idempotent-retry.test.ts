import { dbKinds } from '../helpers/harness.js';
import { createPgDatabase, ServerProcess, type FreshPgDatabase } from '../helpers/server-process.js';

/**
 * CI clients retry a POST with the same Idempotency-Key (the Action does, for about 30 s). After a
 * crash those retries must be served at once: a request whose process died is not "still being
 * processed", so it must not answer 409 until some lock runs out. 100 scans are submitted with keys,
 * the server is SIGKILLed after the 30th 201, and every cut-off scan is retried with its key: on
 * SQLite by the restarted server, on PostgreSQL by a second instance while the first stays dead.
 * Then every scan is sent once more: all are replays, with the id of their first 201.
 */

const SCANS = 100;
const KILL_AFTER = 30;

function body(n: number): string {
  return JSON.stringify({
    url: 'https://retry.example/',
    siteId: 'retry-site',
    sha: (0xdead000 + n).toString(16).padStart(40, '0'),
    pages: Array.from({ length: 10 }, (_, p) => ({
      url: `https://retry.example/p${p}`,
      issues: Array.from({ length: 20 }, (_, k) => ({
        rule: 'image-alt',
        selector: `#i${k}`,
        html: 'x'.repeat(200),
      })),
    })),
  });
}

interface Answer {
  n: number;
  status: number;
  id?: string;
  replayed: boolean;
}

async function send(server: ServerProcess, key: string, n: number): Promise<Answer> {
  try {
    const res = await fetch(`${server.url}/api/v1/scans`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': `ci-run-42-scan-${n}`,
      },
      body: body(n),
    });
    const json = (await res.json()) as { id?: string };
    return {
      n,
      status: res.status,
      id: json.id,
      replayed: res.headers.get('idempotent-replayed') === 'true',
    };
  } catch {
    return { n, status: 0, replayed: false }; // cut off by the kill
  }
}

describe.each(dbKinds)('Idempotency-Key retries after a SIGKILL (%s)', (db) => {
  let database: FreshPgDatabase | undefined;
  const servers: ServerProcess[] = [];

  afterAll(async () => {
    for (const s of servers.reverse()) await s.dispose();
    await database?.drop();
  });

  it(`${SCANS} scans with keys, killed after the ${KILL_AFTER}th 201: every retry is served at once, never 409`, async () => {
    if (db === 'postgres') database = await createPgDatabase(process.env.TEST_DATABASE_URL!);
    const env = { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000', WEBHOOK_WORKER: 'false' };
    const first = new ServerProcess({ databaseUrl: database?.url, env });
    servers.push(first);
    await first.start();
    const { key } = await first.createKey('retry');

    let acknowledged = 0;
    let killed: Promise<void> | undefined;
    const answers = await Promise.all(
      Array.from({ length: SCANS }, (_, n) =>
        send(first, key, n).then((a) => {
          if (a.status === 201 && ++acknowledged === KILL_AFTER) killed = first.kill();
          return a;
        }),
      ),
    );
    await killed;
    expect(first.running).toBe(false);
    const cut = answers.filter((a) => a.status !== 201);
    // A killed process answers nothing: everything not acknowledged was cut off.
    expect(cut.every((a) => a.status === 0)).toBe(true);

    // SQLite: the same server restarted. PostgreSQL: another instance; the first stays dead.
    let second = first;
    if (db === 'postgres') {
      second = new ServerProcess({ databaseUrl: database!.url, env, adminToken: first.adminToken });
      servers.push(second);
    }
    await second.start();
    const retries = await Promise.all(cut.map((a) => send(second, key, a.n)));
    const statuses: Record<number, number> = {};
    for (const r of retries) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    expect(statuses).toEqual(cut.length ? { 201: cut.length } : {});

    // Every key now replays its first answer.
    const firstIds = new Map(
      [...answers, ...retries].filter((a) => a.status === 201).map((a) => [a.n, a.id]),
    );
    const again = await Promise.all(Array.from({ length: SCANS }, (_, n) => send(second, key, n)));
    for (const a of again)
      expect([a.n, a.status, a.replayed, a.id]).toEqual([a.n, 201, true, firstIds.get(a.n)]);

    const list = await fetch(`${second.url}/api/v1/scans?siteId=retry-site&limit=100`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const page = (await list.json()) as { data: unknown[]; next_cursor: string | null };
    console.log(
      `idempotent retries (${db}): ${SCANS} scans, SIGKILL after ${KILL_AFTER} × 201, ${cut.length} cut off; ` +
        `retried on ${db === 'postgres' ? 'a second instance' : 'the restarted server'}: ${JSON.stringify(statuses)}; ` +
        `then ${again.filter((a) => a.replayed).length} of ${SCANS} replayed; ` +
        `${page.data.length}${page.next_cursor ? '+' : ''} scans stored (a scan committed just before the kill ` +
        'is stored again by its retry: at least once)',
    );
  }, 120_000);
});
