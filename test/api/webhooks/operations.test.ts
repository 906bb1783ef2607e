import { Webhook } from 'standardwebhooks';
import { createDeliveryWorker } from '../../../api/jobs/webhooks.js';
import type { DeliveryWorker } from '../../../api/outbox/delivery-worker.js';
import { writeOutboxMessage } from '../../../api/outbox/record.js';
import type {
  CreatedWebhook,
  Problem,
  RotatedWebhookSecret,
  ScheduledDelivery,
  Webhook as WebhookView,
  WebhookAttemptList,
} from '../../helpers/api-types.js';
import { dbKinds, startHarness, useHarness } from '../../helpers/harness.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';

/** Operating a subscription: change it, pause it, ping it, redeliver, rotate its secret. */
describe.each(dbKinds)('webhook operations (%s)', (db) => {
  let rx: Receiver;
  let otherOrg: string;
  let readOnly: string;
  let worker: DeliveryWorker;
  // Declared before the harness, so that it runs before the harness closes (afterAll hooks run in order).
  afterAll(async () => {
    await worker.stop();
    await rx.close();
  });
  const h = useHarness({ db, org: 'ops', env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });

  beforeAll(async () => {
    otherOrg = await h.createKey({ org: 'ops-other' });
    readOnly = await h.createKey({ org: 'ops', scopes: ['read'] });
    worker = createDeliveryWorker(h.server.service.ctx, { retryDelaysMs: [0], timeoutMs: 1000 });
    rx = await startReceiver();
  });

  async function subscribe(path: string, events: string[] = ['*'], k = h.key) {
    const res = await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
      key: k,
      body: { url: rx.url + path, events },
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  }
  const attempts = async (id: string) =>
    (
      await h.request<WebhookAttemptList>('GET', `/api/v1/webhooks/${id}/deliveries?limit=100`, {
        key: h.key,
      })
    ).body.data;

  test('PATCH changes url, events and description; pausing stops deliveries, resuming restarts them', async () => {
    const sub = await subscribe('/patch-a', ['scan.created']);
    const patched = await h.request<WebhookView>('PATCH', `/api/v1/webhooks/${sub.id}`, {
      key: h.key,
      body: { url: rx.url + '/patch-b', events: ['deploy.completed'], description: 'release bot' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      url: rx.url + '/patch-b',
      events: ['deploy.completed'],
      description: 'release bot',
      active: true,
      status: 'active',
    });
    const paused = await h.request<WebhookView>('PATCH', `/api/v1/webhooks/${sub.id}`, {
      key: h.key,
      body: { active: false },
    });
    expect(paused.body).toMatchObject({ active: false, status: 'disabled' });
    await h.db.transaction((trx) => writeOutboxMessage(trx, 'ops', 'deploy.completed', { id: 'p1' }));
    await worker.drain();
    expect(await attempts(sub.id)).toHaveLength(0);
    const resumed = await h.request<WebhookView>('PATCH', `/api/v1/webhooks/${sub.id}`, {
      key: h.key,
      body: { active: true },
    });
    expect(resumed.body).toMatchObject({ active: true, status: 'active', disabled_reason: null });
    await h.db.transaction((trx) => writeOutboxMessage(trx, 'ops', 'deploy.completed', { id: 'p2' }));
    await worker.drain();
    const after = await attempts(sub.id);
    expect(after.map((a) => a.event)).toEqual(['deploy.completed']);
    // Refusals: a private target without the setting is checked on PATCH too; unknown fields; other orgs.
    expect(
      (await h.request('PATCH', `/api/v1/webhooks/${sub.id}`, { key: h.key, body: { nope: 1 } })).status,
    ).toBe(422);
    const foreign = await h.request('PATCH', `/api/v1/webhooks/${sub.id}`, {
      key: otherOrg,
      body: { active: false },
    });
    expect(foreign.status).toBe(404);
    const lacking = await h.request('PATCH', `/api/v1/webhooks/${sub.id}`, {
      key: readOnly,
      body: { active: false },
    });
    expect(lacking.status).toBe(403);
    expect(
      (await h.request<WebhookView>('GET', `/api/v1/webhooks/${sub.id}`, { key: h.key })).body.active,
    ).toBe(true);
  });

  test('ping delivers a signed webhook.ping to that subscription only, listed with its deliveries', async () => {
    const sub = await subscribe('/ping', ['scan.created']);
    const bystander = await subscribe('/bystander', ['*']);
    rx.secrets.set('/ping', sub.secret);
    const before = rx.received.length;
    const res = await h.request<ScheduledDelivery>('POST', `/api/v1/webhooks/${sub.id}/ping`, { key: h.key });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: 'pending',
      delivery_id: expect.stringMatching(/^dlv_/) as unknown,
    });
    await worker.drain();
    const got = rx.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ id: res.body.message_id, verified: true });
    expect(got[0].payload).toMatchObject({ type: 'webhook.ping', data: { webhook_id: sub.id } });
    expect((await attempts(sub.id))[0]).toMatchObject({ event: 'webhook.ping', outcome: 'succeeded' });
    expect(await attempts(bystander.id)).toHaveLength(0);
    expect((await h.request('POST', `/api/v1/webhooks/${sub.id}/ping`, { key: otherOrg })).status).toBe(404);
    expect((await h.request('POST', `/api/v1/webhooks/${sub.id}/ping`, { key: readOnly })).status).toBe(403);
    await h.request('PATCH', `/api/v1/webhooks/${sub.id}`, { key: h.key, body: { active: false } });
    expect((await h.request('POST', `/api/v1/webhooks/${sub.id}/ping`, { key: h.key })).status).toBe(409);
  });

  test('redeliver sends a failed delivery again with the same webhook-id; a pending one is 409', async () => {
    const sub = await subscribe('/redeliver', ['scan.created']);
    rx.secrets.set('/redeliver', sub.secret);
    let fail = true;
    rx.respond = (_n, _req, res) => {
      res.statusCode = fail ? 500 : 204;
      res.end();
    };
    const messageId = await h.db.transaction((trx) =>
      writeOutboxMessage(trx, 'ops', 'scan.created', { id: 'r1' }),
    );
    await worker.drain();
    const [failed] = await attempts(sub.id);
    expect(failed).toMatchObject({ outcome: 'failed', response_status: 500 });
    fail = false;
    const before = rx.received.length;
    const again = await h.request<ScheduledDelivery>(
      'POST',
      `/api/v1/webhooks/${sub.id}/deliveries/${failed.delivery_id}/redeliver`,
      {
        key: h.key,
      },
    );
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ delivery_id: failed.delivery_id, message_id: messageId, status: 'pending' });
    // Until the worker has sent it, it is scheduled: a second request is a conflict.
    const twice = await h.request(
      'POST',
      `/api/v1/webhooks/${sub.id}/deliveries/${failed.delivery_id}/redeliver`,
      {
        key: h.key,
      },
    );
    expect(twice.status).toBe(409);
    await worker.drain();
    expect(rx.received.slice(before)).toEqual([
      expect.objectContaining({ id: messageId, verified: true }) as unknown,
    ]);
    const list = await attempts(sub.id);
    expect(list.map((a) => [a.attempt, a.outcome])).toEqual([
      [2, 'succeeded'],
      [1, 'failed'],
    ]);
    const path = `/api/v1/webhooks/${sub.id}/deliveries/${failed.delivery_id}/redeliver`;
    expect((await h.request('POST', path, { key: otherOrg })).status).toBe(404);
    expect((await h.request('POST', path, { key: readOnly })).status).toBe(403);
    const other = await subscribe('/redeliver-other', ['scan.created']);
    const wrongSub = `/api/v1/webhooks/${other.id}/deliveries/${failed.delivery_id}/redeliver`;
    expect((await h.request('POST', wrongSub, { key: h.key })).status).toBe(404);
    rx.respond = (_n, _req, res) => {
      res.statusCode = 204;
      res.end();
    };
  });

  test('rotate-secret: during the overlap each delivery verifies with either secret (standardwebhooks); after it, only the new one', async () => {
    // An org of its own: every delivery the receiver gets in this test is for this subscription.
    const own = await h.createKey({ org: 'ops-rotate' });
    const sub = await subscribe('/rotate', ['scan.created'], own);
    const rotated = await h.request<RotatedWebhookSecret>(
      'POST',
      `/api/v1/webhooks/${sub.id}/rotate-secret`,
      {
        key: own,
        body: { overlap_seconds: 3600 },
      },
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(sub.secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at!) - Date.now()).toBeGreaterThan(3500_000);

    const deliver = async (id: string) => {
      const before = rx.received.length;
      await h.db.transaction((trx) => writeOutboxMessage(trx, 'ops-rotate', 'scan.created', { id }));
      await worker.drain();
      return rx.received[before];
    };
    const verifies = (secret: string, r: { body: string; headers: Record<string, unknown> }) => {
      try {
        new Webhook(secret).verify(r.body, {
          'webhook-id': String(r.headers['webhook-id']),
          'webhook-timestamp': String(r.headers['webhook-timestamp']),
          'webhook-signature': String(r.headers['webhook-signature']),
        });
        return true;
      } catch {
        return false;
      }
    };
    const during = await deliver('during');
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect([verifies(sub.secret, during), verifies(rotated.body.secret, during)]).toEqual([true, true]);

    // The overlap ends (moved into the past here rather than waited for): one signature, the new secret.
    await h
      .db('webhook_subscriptions')
      .where({ id: sub.id })
      .update({
        previous_secret_expires_at: new Date(Date.now() - 1000).toISOString(),
      });
    const after = await deliver('after');
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect([verifies(sub.secret, after), verifies(rotated.body.secret, after)]).toEqual([false, true]);
    expect(
      (await h.request<WebhookView>('GET', `/api/v1/webhooks/${sub.id}`, { key: own })).body
        .previous_secret_expires_at,
    ).toBeNull();

    // Limits and isolation.
    const tooLong = await h.request('POST', `/api/v1/webhooks/${sub.id}/rotate-secret`, {
      key: own,
      body: { overlap_seconds: 8 * 86400 },
    });
    expect(tooLong.status).toBe(422);
    const path = `/api/v1/webhooks/${sub.id}/rotate-secret`;
    expect((await h.request('POST', path, { key: otherOrg, body: {} })).status).toBe(404);
    expect((await h.request('POST', path, { key: readOnly, body: {} })).status).toBe(403);
    // The overlap of the first rotation was ended above; a new one runs from here.
    const defaulted = await h.request<RotatedWebhookSecret>('POST', path, { key: own, body: {} });
    const overlap = Date.parse(defaulted.body.previous_secret_expires_at!) - Date.now();
    expect(overlap).toBeGreaterThan(86_300_000);
    expect(overlap).toBeLessThanOrEqual(86_400_000);
  });

  test('rotate-secret during an overlap is 409 and keeps the secret the receiver holds; overlap 0 ends it', async () => {
    const own = await h.createKey({ org: 'ops-rotate-twice' });
    const sub = await subscribe('/rotate-twice', ['scan.created'], own);
    const path = `/api/v1/webhooks/${sub.id}/rotate-secret`;
    const first = await h.request<RotatedWebhookSecret>('POST', path, {
      key: own,
      body: { overlap_seconds: 600 },
    });
    expect(first.status).toBe(200);
    const stored = () => h.db('webhook_subscriptions').where({ id: sub.id }).first();
    const before = (await stored()) as Record<string, unknown>;
    const second = await h.request<Problem>('POST', path, { key: own, body: { overlap_seconds: 600 } });
    expect(second.status).toBe(409);
    expect(second.body.detail).toContain(first.body.previous_secret_expires_at!);
    expect(await stored()).toEqual(before);
    const now = await h.request<RotatedWebhookSecret>('POST', path, {
      key: own,
      body: { overlap_seconds: 0 },
    });
    expect(now.status).toBe(200);
    expect(now.body.previous_secret_expires_at).toBeNull();
  });

  test('the SSRF refusal names the setting that allows local receivers', async () => {
    const strict = await startHarness({ db });
    try {
      const k = await strict.createKey({ org: 'strict' });
      const res = await strict.request<Problem>('POST', '/api/v1/webhooks', {
        key: k,
        body: { url: 'http://127.0.0.1:9/hook', events: ['*'] },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors?.[0].detail).toMatch(/WEBHOOK_ALLOW_PRIVATE=true/);
    } finally {
      await strict.close();
    }
  });
});
