import { randomBytes } from 'node:crypto';
import { dbKinds, type DbKind } from '../helpers/harness.js';
import { createPgDatabase, ServerProcess, type FreshPgDatabase } from '../helpers/server-process.js';
import { seededRandom } from '../../api/domain/vpat/assessments/sample.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/**
 * Webhook durability: a backlog of events is written (through the API, with the worker off), then a
 * server with the worker on is SIGKILLed while its deliveries are in flight (the receiver holds every
 * answer for a second). After a restart every event is delivered at least once with a valid Standard
 * Webhooks signature and answered 2xx: the deliveries that were cut off count only when they are sent
 * again. Duplicates (deliveries that arrived but whose answer the killed worker never recorded) are
 * counted.
 *
 * A delivery cut off by the kill keeps its lease until it runs out (60 s, the worker's default), so
 * most of this test is waiting: the SQLite and PostgreSQL runs wait side by side.
 */

const EVENTS = 60;
const SEED = 21;

interface Outcome {
  db: DbKind;
  events: Set<string>;
  killedAfter: number;
  inFlightAtKill: number;
  receiver: Receiver;
  complete: boolean;
}

/** `EVENTS` scans through the API: each scan's transaction writes its scan.created event to the outbox. */
async function writeEvents(server: ServerProcess, key: string): Promise<Set<string>> {
  const events = new Set<string>();
  for (let n = 0; n < EVENTS; n++) {
    const res = await fetch(`${server.url}/api/v1/scans`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        url: 'https://hooks.example/',
        siteId: 'hooks-site',
        sha: (0xfeed00 + n).toString(16).padStart(40, '0'),
        pages: [
          {
            url: 'https://hooks.example/',
            issues: [{ rule: 'image-alt', impact: 'critical', selector: 'img' }],
          },
        ],
      }),
    });
    if (res.status !== 201) throw new Error(`scan ${n}: ${res.status} ${await res.text()}`);
    events.add(((await res.json()) as { id: string }).id);
  }
  return events;
}

async function scenario(db: DbKind, seed: number): Promise<Outcome> {
  let database: FreshPgDatabase | undefined;
  const processes: ServerProcess[] = [];
  const receiver = await startReceiver({ delayMs: 1000 });
  try {
    if (db === 'postgres') database = await createPgDatabase(process.env.TEST_DATABASE_URL!);
    const env = {
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    };
    const writer = new ServerProcess({
      databaseUrl: database?.url,
      env: { ...env, WEBHOOK_WORKER: 'false' },
    });
    processes.push(writer);
    await writer.start();
    const { key } = await writer.createKey('hooks');
    const sub = await fetch(`${writer.url}/api/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/hook`, events: ['scan.created'] }),
    });
    if (sub.status !== 201) throw new Error(`subscription: ${sub.status} ${await sub.text()}`);
    receiver.secrets.set('*', ((await sub.json()) as { secret: string }).secret);
    const events = await writeEvents(writer, key);
    await writer.stop();

    // The sender: same data, worker on. Killed once the seeded number of deliveries has arrived.
    const sender = new ServerProcess({
      databaseUrl: database?.url,
      dataDir: writer.dataDir,
      adminToken: writer.adminToken,
      env: { ...env, WEBHOOK_WORKER: 'true' },
    });
    processes.push(sender);
    const killAfter = 3 + Math.floor(seededRandom(seed)() * 30);
    await sender.start();
    await receiver.waitUntil(() => receiver.received.length >= killAfter, 30_000);
    await sender.kill();
    const killedAfter = receiver.received.length;
    const inFlightAtKill = killedAfter - receiver.answered;
    await sender.start();

    const complete = await receiver.waitUntil(
      () => [...events].every((id) => receiver.verifiedDataIds(true).has(id)),
      150_000,
    );
    return { db, events, killedAfter, inFlightAtKill, receiver, complete };
  } finally {
    for (const p of processes.reverse()) await p.dispose();
    await receiver.close();
    await database?.drop();
  }
}

describe('webhook durability under SIGKILL', () => {
  const outcomes = new Map<DbKind, Outcome>();

  beforeAll(async () => {
    const results = await Promise.all(dbKinds.map((db, i) => scenario(db, SEED + i)));
    for (const r of results) outcomes.set(r.db, r);
  }, 240_000);

  it.each(dbKinds)(
    `%s: ${EVENTS} scan.created events, killed mid-delivery: every one delivered and verified after restart`,
    (db) => {
      const o = outcomes.get(db)!;
      // Delivered = signed, verified and answered 2xx to a live sender: what the cut-off
      // deliveries got only after the restart.
      const delivered = o.receiver.verifiedDataIds(true);
      const missing = [...o.events].filter((id) => !delivered.has(id));
      const badSignatures = o.receiver.received.filter((r) => !r.verified).length;
      console.log(
        `webhooks (${db}): ${EVENTS} scan.created events; SIGKILL after ${o.killedAfter} deliveries had ` +
          `arrived, ${o.inFlightAtKill} of them still unanswered (in flight); 1 kill survived; ` +
          `${delivered.size} events delivered and verified, ${o.receiver.duplicates()} duplicates, ` +
          `${badSignatures} bad signatures, ${missing.length} missing`,
      );
      // The kill must really have cut deliveries off, or this test proves nothing.
      expect(o.inFlightAtKill).toBeGreaterThan(0);
      expect(missing).toEqual([]);
      expect(o.complete).toBe(true);
      expect(badSignatures).toBe(0);
      // Each event keeps its webhook-id across retries, so a receiver can deduplicate.
      const idsPerEvent = new Map<string, Set<string>>();
      for (const r of o.receiver.received) {
        if (!r.dataId) continue;
        idsPerEvent.set(r.dataId, (idsPerEvent.get(r.dataId) ?? new Set()).add(r.id));
      }
      for (const ids of idsPerEvent.values()) expect(ids.size).toBe(1);
    },
  );
});
