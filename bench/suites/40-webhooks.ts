import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { newId, nowIso } from '../../api/domain/ids.js';
import { writeOutboxMessage } from '../../api/outbox/record.js';
import { createDb } from '../../api/store/db.js';
import { createPgDatabase, ServerProcess } from '../../test/helpers/server-process.js';
import { startBenchServer, table, type BenchSuite, type BenchTarget } from '../env.js';

/**
 * Webhooks: (1) the delivery rate to a local receiver with one server process and, on PostgreSQL,
 * two processes sharing the work (FOR UPDATE SKIP LOCKED); (2) the latency an outbox row and its
 * deliveries add to the transaction of an ingest, with subscriptions versus none.
 */

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000);
const LATENCY_ROUNDS = 300;

interface Receiver {
  url: string;
  count: number;
  bad: number;
  first: number;
  last: number;
  secret: string;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const r: Receiver = { url: '', count: 0, bad: 0, first: 0, last: 0, secret: '', close: async () => {} };
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      try {
        new Webhook(r.secret).verify(Buffer.concat(chunks).toString('utf8'), {
          'webhook-id': id,
          'webhook-timestamp': String(req.headers['webhook-timestamp']),
          'webhook-signature': String(req.headers['webhook-signature']),
        });
      } catch {
        r.bad++;
      }
      if (!seen.has(id)) {
        seen.add(id);
        r.count++;
        const now = performance.now();
        if (r.count === 1) r.first = now;
        r.last = now;
      }
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  r.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return r;
}

/** Deliveries per second from the first to the last arrival, with `instances` worker processes. */
async function deliveryRate(target: BenchTarget, instances: number) {
  const database = target.databaseUrl
    ? await createPgDatabase(target.databaseUrl, 'a11y_bench_whk')
    : undefined;
  const secretKey = randomBytes(32).toString('hex');
  const common = {
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_SECRET_KEY: secretKey,
    RATE_LIMIT_PER_MINUTE: '100000000',
  };
  const receiver = await startReceiver();
  const setup = new ServerProcess({
    databaseUrl: database?.url,
    env: { ...common, WEBHOOK_WORKER: 'false' },
  });
  const workers: ServerProcess[] = [];
  try {
    await setup.start();
    const { key } = await setup.createKey('bench');
    const sub = await fetch(`${setup.url}/api/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['*'] }),
    });
    receiver.secret = ((await sub.json()) as { secret: string }).secret;
    await setup.stop();

    // The backlog is written while no worker runs, so the figure is pure delivery throughput.
    const db = createDb({ url: database?.url, dataDir: setup.dataDir });
    for (let i = 0; i < EVENTS; i += 100) {
      await db.transaction(async (trx) => {
        for (let j = i; j < Math.min(EVENTS, i + 100); j++) {
          await writeOutboxMessage(trx, 'bench', 'scan.created', { n: j });
        }
      });
    }
    await db.destroy();

    for (let i = 0; i < instances; i++) {
      workers.push(
        new ServerProcess({
          databaseUrl: database?.url,
          // SQLite: the same file (one instance only); PostgreSQL: the same database.
          dataDir: setup.dataDir,
          adminToken: setup.adminToken,
          env: { ...common, WEBHOOK_WORKER: 'true', WEBHOOK_POLL_MS: '50' },
        }),
      );
    }
    await Promise.all(workers.map((w) => w.start()));
    const deadline = Date.now() + 300_000;
    while (receiver.count < EVENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const seconds = (receiver.last - receiver.first) / 1000;
    return {
      delivered: receiver.count,
      bad_signatures: receiver.bad,
      per_s: seconds > 0 ? Math.round((receiver.count - 1) / seconds) : 0,
    };
  } finally {
    for (const w of workers) {
      await w.stop().catch(() => undefined);
    }
    await setup.dispose();
    await receiver.close();
    await database?.drop();
  }
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Median duration of an ingest-shaped transaction (one `scans` row) without an event, with the
 * `scan.created` outbox row and no subscriptions, and with three matching subscriptions.
 */
async function ingestLatency(target: BenchTarget) {
  const server = await startBenchServer(target, { WEBHOOK_ALLOW_PRIVATE: 'true' });
  try {
    const db = server.server.service.ctx.db;
    const ingest = async (org: string, withEvent: boolean) => {
      const started = performance.now();
      await db.transaction(async (trx) => {
        const id = newId('scn');
        await trx('scans').insert({
          id,
          org,
          site_id: 'bench-site',
          url: 'https://bench.example/',
          sha: randomBytes(20).toString('hex'),
          branch: 'main',
          page_count: 1,
          issue_count: 0,
          summary: '{}',
          warnings: '[]',
          fingerprint_version: 1,
          created_at: nowIso(),
        });
        if (withEvent) await writeOutboxMessage(trx, org, 'scan.created', { id, siteId: 'bench-site' });
      });
      return performance.now() - started;
    };
    const headers = { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' };
    for (let i = 0; i < 3; i++) {
      await fetch(`${server.url}/api/v1/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: `http://127.0.0.1:9/hook-${i}`, events: ['scan.created'] }),
      });
    }
    const none: number[] = [];
    const outboxOnly: number[] = [];
    const withSubs: number[] = [];
    for (let i = 0; i < 20; i++) await ingest('warmup', true);
    // Interleaved, so drift of the machine affects the three alike.
    for (let i = 0; i < LATENCY_ROUNDS; i++) {
      none.push(await ingest('nobody', false));
      outboxOnly.push(await ingest('nobody', true));
      withSubs.push(await ingest('bench', true));
    }
    const ms = (v: number) => Math.round(v * 1000) / 1000;
    return {
      no_event_ms: ms(median(none)),
      outbox_no_subscriptions_ms: ms(median(outboxOnly)),
      outbox_3_subscriptions_ms: ms(median(withSubs)),
      added_by_subscriptions_ms: ms(median(withSubs) - median(outboxOnly)),
      added_by_outbox_ms: ms(median(outboxOnly) - median(none)),
    };
  } finally {
    await server.close();
  }
}

const suite: BenchSuite = {
  name: 'webhooks',
  async run(target) {
    const one = await deliveryRate(target, 1);
    const two = target.kind === 'postgres' ? await deliveryRate(target, 2) : undefined;
    const latency = await ingestLatency(target);
    const rows: Array<Record<string, string | number>> = [
      { measure: `deliveries/s, 1 instance (${EVENTS} events)`, value: one.per_s },
    ];
    if (two) rows.push({ measure: `deliveries/s, 2 instances (${EVENTS} events)`, value: two.per_s });
    rows.push(
      { measure: 'ingest transaction, no event: median ms', value: latency.no_event_ms },
      {
        measure: 'ingest + outbox row, no subscriptions: median ms',
        value: latency.outbox_no_subscriptions_ms,
      },
      {
        measure: 'ingest + outbox row, 3 subscriptions: median ms',
        value: latency.outbox_3_subscriptions_ms,
      },
      { measure: 'added by 3 subscriptions: ms', value: latency.added_by_subscriptions_ms },
    );
    table(rows);
    const complete = one.delivered === EVENTS && (!two || two.delivered === EVENTS);
    if (!complete || one.bad_signatures || two?.bad_signatures) {
      console.error(`webhooks: delivery incomplete or bad signatures: ${JSON.stringify({ one, two })}`);
    }
    return {
      events: EVENTS,
      deliveries_per_s_1_instance: one.per_s,
      deliveries_per_s_2_instances: two?.per_s,
      delivered_all: complete,
      // Events not delivered within the wait, plus deliveries whose signature did not verify.
      delivery_defects:
        EVENTS -
        one.delivered +
        (two ? EVENTS - two.delivered : 0) +
        one.bad_signatures +
        (two?.bad_signatures ?? 0),
      bad_signatures: one.bad_signatures + (two?.bad_signatures ?? 0),
      ...latency,
    };
  },
};

export default suite;
