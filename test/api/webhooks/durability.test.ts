import { randomBytes } from 'node:crypto';
import { createDeliveryWorker } from '../../../api/jobs/webhooks.js';
import { writeOutboxMessage } from '../../../api/outbox/record.js';
import type { CreatedWebhook } from '../../helpers/api-types.js';
import { dbKinds, startHarness, type Harness } from '../../helpers/harness.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';

/** The columns of a stored delivery these tests read or write. */
interface DeliveryRow {
  org: string;
  message_id: string;
  status: string;
  attempts: number;
  locked_by: string | null;
  locked_until: string | null;
}

const WORKER_ON = { WEBHOOK_WORKER: 'true', WEBHOOK_POLL_MS: '100', WEBHOOK_ALLOW_PRIVATE: 'true' };

describe.each(dbKinds)('webhook outbox durability (%s)', (db) => {
  let rx: Receiver;
  beforeEach(async () => {
    rx = await startReceiver();
  });
  afterEach(async () => {
    await rx.close();
  });

  test('an event committed before a restart is delivered by the restarted server', async () => {
    const first = await startHarness({ db, env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    const key = await first.createKey({ org: 'dur' });
    const sub = await first.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
      key,
      body: { url: rx.url + '/restart', events: ['*'] },
    });
    rx.secrets.set('/restart', sub.body.secret);
    const committed = await first.db.transaction((trx) =>
      writeOutboxMessage(trx, 'dur', 'vpat.generated', { id: 'vpt_1' }),
    );
    // A second delivery was being sent when its worker died: its lease has run out.
    const leased = await first.db.transaction((trx) =>
      writeOutboxMessage(trx, 'dur', 'waiver.created', { id: 'wvr_1' }),
    );
    await first
      .db<DeliveryRow>('webhook_deliveries')
      .where({ message_id: leased })
      .update({ locked_by: 'dead-worker', locked_until: new Date(Date.now() - 1000).toISOString() });
    await first.close({ keepData: true });
    expect(rx.received).toHaveLength(0);

    const second = await startHarness({
      db,
      dataDir: first.dataDir,
      schema: first.schema,
      env: WORKER_ON,
      startJobs: true,
    });
    try {
      await rx.waitFor(2);
      expect(rx.received.map((r) => r.id).sort()).toEqual([committed, leased].sort());
      expect(rx.received.every((r) => r.verified)).toBe(true);
    } finally {
      await second.close();
    }
  });

  test('a delivery still leased by a live worker is not taken by another one', async () => {
    const h = await startHarness({ db, env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    try {
      const key = await h.createKey({ org: 'lease' });
      const sub = await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
        key,
        body: { url: rx.url + '/lease', events: ['*'] },
      });
      rx.secrets.set('/lease', sub.body.secret);
      const msg = await h.db.transaction((trx) =>
        writeOutboxMessage(trx, 'lease', 'scan.created', { id: 'scn_l' }),
      );
      await h
        .db<DeliveryRow>('webhook_deliveries')
        .where({ message_id: msg })
        .update({ locked_by: 'busy-worker', locked_until: new Date(Date.now() + 60_000).toISOString() });
      const worker = createDeliveryWorker(h.server.service.ctx);
      expect(await worker.runOnce()).toBe(0);
      await worker.stop();
      expect(rx.received).toHaveLength(0);
    } finally {
      await h.close();
    }
  });
});

const pg = dbKinds.includes('postgres');
(pg ? describe : describe.skip)('two instances on one PostgreSQL database', () => {
  let a: Harness;
  let b: Harness;
  let rx: Receiver;

  beforeAll(async () => {
    rx = await startReceiver();
    const env = { ...WORKER_ON, WEBHOOK_POLL_MS: '50', WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex') };
    a = await startHarness({ db: 'postgres', env, startJobs: true });
    b = await startHarness({ db: 'postgres', schema: a.schema, env, startJobs: true });
  });
  afterAll(async () => {
    await b.close({ keepData: true });
    await a.close();
    await rx.close();
  });

  test('500 events: every one delivered and verified, none twice', async () => {
    const key = await a.createKey({ org: 'pair' });
    const sub = await a.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
      key,
      body: { url: rx.url + '/pair', events: ['scan.created'] },
    });
    rx.secrets.set('/pair', sub.body.secret);
    const ids: string[] = [];
    // Events are written through both instances' connections, 25 per transaction.
    for (let batch = 0; batch < 20; batch++) {
      const via = batch % 2 ? a : b;
      await via.db.transaction(async (trx) => {
        for (let i = 0; i < 25; i++) {
          ids.push(await writeOutboxMessage(trx, 'pair', 'scan.created', { n: batch * 25 + i }));
        }
      });
    }
    await rx.waitFor(500, 60_000);
    // Give a double delivery the chance to show up before counting.
    await new Promise((r) => setTimeout(r, 500));
    const counts = new Map<string, number>();
    for (const r of rx.received) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
    expect(rx.received).toHaveLength(500);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect([...counts.keys()].sort()).toEqual(ids.sort());
    expect(rx.received.every((r) => r.verified)).toBe(true);
    const states = await a
      .db<DeliveryRow>('webhook_deliveries')
      .where({ org: 'pair' })
      .select('status', 'attempts');
    expect(states.every((s) => s.status === 'succeeded' && s.attempts === 1)).toBe(true);
  }, 90_000);
});
