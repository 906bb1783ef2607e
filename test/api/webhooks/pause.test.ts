import { createDeliveryWorker } from '../../../api/jobs/webhooks.js';
import { writeOutboxMessage } from '../../../api/outbox/record.js';
import type { CreatedWebhook, Webhook as WebhookView } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';

/**
 * A receiver that never answers is paused after the configured run of timeouts: its pending deliveries
 * are cancelled and the org's other subscriptions get `webhook.paused`; an HTTP error is an answer and
 * does not count.
 */
describe.each(dbKinds)('pausing a subscription that keeps timing out (%s)', (db) => {
  const h = useHarness({ db, org: 'pause', env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  let dead: Receiver;
  let live: Receiver;
  beforeAll(async () => {
    dead = await startReceiver();
    dead.respond = () => {
      // never answers
    };
    live = await startReceiver();
  });
  afterAll(async () => {
    await dead.close();
    await live.close();
  });

  const subscribe = async (url: string, events: string[]) =>
    (await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', { key: h.key, body: { url, events } })).body;

  test('three timeouts in a row pause it, once; the other subscription is told', async () => {
    const worker = createDeliveryWorker(h.server.service.ctx, {
      retryDelaysMs: [0, 0, 0, 0, 0, 0],
      timeoutMs: 150,
      pauseAfterTimeouts: 3,
    });
    const sleepy = await subscribe(`${dead.url}/sleepy`, ['scan.created']);
    const watcher = await subscribe(`${live.url}/watch`, ['webhook.paused']);
    live.secrets.set('*', watcher.secret);
    for (let i = 0; i < 4; i++) {
      await h.db.transaction((trx) => writeOutboxMessage(trx, 'pause', 'scan.created', { id: `s${i}` }));
    }
    // Two attempts (the cap per subscription) at a time, each cut off by the timeout.
    for (let round = 0; round < 3; round++) await worker.runOnce();
    const after = (await h.request<WebhookView>('GET', `/api/v1/webhooks/${sleepy.id}`, { key: h.key })).body;
    expect(after).toMatchObject({
      active: false,
      disabled_reason: expect.stringMatching(/last 3 deliveries/) as unknown,
    });
    const pending = await h.db('webhook_deliveries').where({ subscription_id: sleepy.id, status: 'pending' });
    expect(pending).toHaveLength(0);
    await worker.drain();
    await worker.stop();
    const told = live.received.filter((r) => r.verified && r.payload.type === 'webhook.paused');
    expect(told).toHaveLength(1);
    expect(told[0].payload.data).toMatchObject({ webhook_id: sleepy.id, url: `${dead.url}/sleepy` });
  });

  test('HTTP errors are answers: a receiver answering 500 is not paused for timing out', async () => {
    const failing = await startReceiver();
    failing.respond = (_n, _req, res) => {
      res.statusCode = 500;
      res.end();
    };
    const worker = createDeliveryWorker(h.server.service.ctx, {
      retryDelaysMs: [0, 0, 0, 0, 0],
      pauseAfterTimeouts: 2,
    });
    try {
      const sub = await subscribe(`${failing.url}/err`, ['waiver.created']);
      for (let i = 0; i < 3; i++) {
        await h.db.transaction((trx) => writeOutboxMessage(trx, 'pause', 'waiver.created', { id: `w${i}` }));
      }
      await worker.drain();
      const after = (await h.request<WebhookView>('GET', `/api/v1/webhooks/${sub.id}`, { key: h.key })).body;
      expect(after.active).toBe(true);
    } finally {
      await worker.stop();
      await failing.close();
    }
  });
});
