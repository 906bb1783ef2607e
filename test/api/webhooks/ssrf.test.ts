import net from 'node:net';
import { createDeliveryWorker } from '../../../api/jobs/webhooks.js';
import { writeOutboxMessage } from '../../../api/outbox/record.js';
import type { CreatedWebhook, Problem, WebhookAttemptList } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';

/** The columns of a stored subscription these tests read or write. */
interface SubscriptionRow {
  id: string;
  org: string;
  url: string;
}

/** Counts TCP connections, so a test can show that nothing ever reached the forbidden address. */
async function connectionCounter() {
  let connections = 0;
  const server = net.createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    count: () => connections,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(dbKinds)('webhook SSRF guard with WEBHOOK_ALLOW_PRIVATE off (%s)', (db) => {
  const h = useHarness({ db, org: 'ssrf' });

  test.each([
    'https://127.0.0.1/hook',
    'https://0x7f000001/hook',
    'https://2130706433/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::127.0.0.1]/hook',
    'https://[::7f00:1]/hook',
    'https://[64:ff9b::10.0.0.1]/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://10.0.0.8/hook',
    'https://172.20.1.1/hook',
    'https://192.168.0.10/hook',
    'https://100.64.1.1/hook',
    'https://[fe80::1]/hook',
    'https://[fd12:3456::1]/hook',
    'https://224.0.0.251/hook',
    'https://localhost/hook',
    'http://hooks.example.com/hook',
  ])('%s is refused at creation with 422', async (url) => {
    const res = await h.request<Problem>('POST', '/api/v1/webhooks', {
      key: h.key,
      body: { url, events: ['*'] },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([{ pointer: '#/url', detail: expect.any(String) as unknown }]);
    expect(await h.db('webhook_subscriptions').where({ org: 'ssrf' })).toHaveLength(0);
  });

  test('a name that resolves to loopback at delivery time (DNS rebinding) is a failed attempt, never a connection', async () => {
    const target = await connectionCounter();
    const created = await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
      key: h.key,
      body: { url: `https://rebind.example:${target.port}/hook`, events: ['scan.created'] },
    });
    expect(created.status).toBe(201);
    // The name looked public when the subscription was created; now it answers 127.0.0.1.
    const worker = createDeliveryWorker(h.server.service.ctx, {
      resolver: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
    });
    await h.db.transaction((trx) => writeOutboxMessage(trx, 'ssrf', 'scan.created', { id: 's' }));
    await worker.runOnce();
    await worker.stop();
    const res = await h.request<WebhookAttemptList>('GET', `/api/v1/webhooks/${created.body.id}/deliveries`, {
      key: h.key,
    });
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ outcome: 'retrying', response_status: null });
    expect(res.body.data[0].error).toMatch(
      /rebind\.example resolves to 127\.0\.0\.1, which is a loopback address/,
    );
    expect(target.count()).toBe(0);
    await target.close();
    await h.request('DELETE', `/api/v1/webhooks/${created.body.id}`, { key: h.key });
  });

  test('a stored literal private target (e.g. created while private targets were allowed) is refused at delivery', async () => {
    const target = await connectionCounter();
    const created = await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
      key: h.key,
      body: { url: 'https://hooks.example.com/x', events: ['scan.created'] },
    });
    await h
      .db<SubscriptionRow>('webhook_subscriptions')
      .where({ id: created.body.id })
      .update({ url: `https://[::ffff:7f00:1]:${target.port}/hook` });
    const worker = createDeliveryWorker(h.server.service.ctx);
    await h.db.transaction((trx) => writeOutboxMessage(trx, 'ssrf', 'scan.created', { id: 't' }));
    await worker.runOnce();
    await worker.stop();
    const res = await h.request<WebhookAttemptList>('GET', `/api/v1/webhooks/${created.body.id}/deliveries`, {
      key: h.key,
    });
    expect(res.body.data[0].error).toMatch(
      /^refused: the URL points at ::ffff:7f00:1, which is a loopback address/,
    );
    expect(target.count()).toBe(0);
    await target.close();
  });

  test('a stored IPv4-compatible IPv6 target ([::127.0.0.1]) is refused at delivery, never connected to', async () => {
    const target = await connectionCounter();
    const created = await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
      key: h.key,
      body: { url: 'https://hooks.example.com/y', events: ['scan.created'] },
    });
    await h
      .db<SubscriptionRow>('webhook_subscriptions')
      .where({ id: created.body.id })
      .update({ url: `https://[::7f00:1]:${target.port}/hook` });
    const worker = createDeliveryWorker(h.server.service.ctx);
    await h.db.transaction((trx) => writeOutboxMessage(trx, 'ssrf', 'scan.created', { id: 'u' }));
    await worker.runOnce();
    await worker.stop();
    const res = await h.request<WebhookAttemptList>('GET', `/api/v1/webhooks/${created.body.id}/deliveries`, {
      key: h.key,
    });
    expect(res.body.data[0].error).toMatch(
      /^refused: the URL points at ::7f00:1, which is an IPv4-compatible/,
    );
    expect(target.count()).toBe(0);
    await target.close();
  });
});
