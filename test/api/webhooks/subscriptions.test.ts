import http from 'node:http';
import os from 'node:os';
import { jest } from '@jest/globals';
import { createDeliveryWorker } from '../../../api/jobs/webhooks.js';
import type { DeliveryWorker } from '../../../api/outbox/delivery-worker.js';
import { writeOutboxMessage } from '../../../api/outbox/record.js';
import type { EventType } from '../../../api/schemas/webhook-events.js';
import type { CreatedWebhook, Problem, WebhookAttemptList, WebhookList } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';
import { sleep } from '../../helpers/wait.js';

/** The columns of the stored rows these tests read. */
interface SubscriptionRow {
  id: string;
  org: string;
  secret_sealed: string;
  failing_since: string | null;
}
interface DeliveryRow {
  subscription_id: string;
  status: string;
  attempts: number;
  locked_by: string | null;
}
/** The part of the OpenAPI document these tests read. */
interface OpenApiWebhooks {
  webhooks: Record<string, { post: unknown }>;
}

async function runUntil(worker: DeliveryWorker, done: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await worker.runOnce();
    await sleep(20);
  }
}

describe.each(dbKinds)('webhooks (%s)', (db) => {
  let rx: Receiver;
  let worker: DeliveryWorker;
  // Declared before the harness, so that it runs before the harness closes (afterAll hooks run in order).
  afterAll(async () => {
    await worker.stop();
  });
  const h = useHarness({ db, org: 'acme', env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });

  beforeAll(() => {
    worker = createDeliveryWorker(h.server.service.ctx, { retryDelaysMs: [0, 50, 50, 50], timeoutMs: 500 });
  });
  beforeEach(async () => {
    rx = await startReceiver();
  });
  afterEach(async () => {
    await rx.close();
  });

  async function subscribe(path: string, events: string[] = ['*'], k = h.key) {
    const res = await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
      key: k,
      body: { url: rx.url + path, events },
    });
    expect(res.status).toBe(201);
    rx.secrets.set(path, res.body.secret);
    return res.body as { id: string; secret: string };
  }

  const emit = (type: EventType, data: Record<string, unknown> = { id: 'x' }, org = 'acme') =>
    h.db.transaction((trx) => writeOutboxMessage(trx, org, type, data));

  const attempts = async (id: string, k = h.key) => {
    const res = await h.request<WebhookAttemptList>('GET', `/api/v1/webhooks/${id}/deliveries?limit=100`, {
      key: k,
    });
    expect(res.status).toBe(200);
    return res.body.data;
  };

  test('create shows the secret once, stores it encrypted, lists and deletes', async () => {
    const created = await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
      key: h.key,
      body: { url: rx.url + '/crud', events: ['scan.created', 'deploy.completed'], description: 'ci' },
    });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.body.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(created.body).toMatchObject({ status: 'active', events: ['scan.created', 'deploy.completed'] });
    expect(created.headers.get('location')).toBe(`/api/v1/webhooks/${created.body.id}`);
    const row = await h.db<SubscriptionRow>('webhook_subscriptions').where({ id: created.body.id }).first();
    expect(JSON.stringify(row)).not.toContain(created.body.secret.slice(6));
    expect(row!.secret_sealed).toMatch(/^v1:/);

    const list = await h.request<WebhookList>('GET', '/api/v1/webhooks', { key: h.key });
    const listed = list.body.data.find((w: { id: string }) => w.id === created.body.id);
    expect(listed).toMatchObject({ url: rx.url + '/crud', description: 'ci' });
    expect((listed as Record<string, unknown>).secret).toBeUndefined();

    expect((await h.request('DELETE', `/api/v1/webhooks/${created.body.id}`, { key: h.key })).status).toBe(
      204,
    );
    expect((await h.request('DELETE', `/api/v1/webhooks/${created.body.id}`, { key: h.key })).status).toBe(
      404,
    );
  });

  test('bad subscriptions are 422 with pointers and store nothing', async () => {
    const before = await h.db('webhook_subscriptions').count({ n: '*' }).first();
    const cases: Array<[unknown, string]> = [
      [{ url: 'not a url', events: ['*'] }, '#/url'],
      [{ url: 'ftp://example.com/x', events: ['*'] }, '#/url'],
      [{ url: 'https://u:p@example.com/x', events: ['*'] }, '#/url'],
      [{ url: 'https://example.com/x', events: ['scan.removed'] }, '#/events/0'],
      [{ url: 'https://example.com/x', events: [] }, '#/events'],
      [{ url: 'https://example.com/x', events: ['*', '*'] }, '#/events'],
      [{ events: ['*'] }, '#/url'],
    ];
    for (const [body, pointer] of cases) {
      const res = await h.request<Problem>('POST', '/api/v1/webhooks', { key: h.key, body });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors?.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
    const after = await h.db('webhook_subscriptions').count({ n: '*' }).first();
    expect(after).toEqual(before);
  });

  test('the subscription list is newest first and follows its cursor to the end', async () => {
    const k = await h.createKey({ org: 'paged' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
        key: k,
        body: { url: `${rx.url}/paged-${i}`, events: ['scan.created'] },
      });
      ids.push(res.body.id);
    }
    const first = await h.request<WebhookList>('GET', '/api/v1/webhooks?limit=2', { key: k });
    expect(first.body.data.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = await h.request<WebhookList>(
      'GET',
      `/api/v1/webhooks?limit=2&cursor=${first.body.next_cursor}`,
      {
        key: k,
      },
    );
    expect(second.status).toBe(200);
    expect(second.body.data.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
    expect(second.body.next_cursor).toBeNull();
    for (const id of ids) await h.request('DELETE', `/api/v1/webhooks/${id}`, { key: k });
  });

  test('NUL in a description, an id or a forged cursor is a client mistake (422/404), never a 500', async () => {
    const before = await h.db('webhook_subscriptions').count({ n: '*' }).first();
    const nul = await h.request<Problem>('POST', '/api/v1/webhooks', {
      key: h.key,
      body: { url: rx.url + '/nul', events: ['*'], description: 'a\u0000b' },
    });
    expect(nul.status).toBe(422);
    expect(nul.body.errors?.map((e: { pointer: string }) => e.pointer)).toEqual(['#/description']);
    expect(await h.db('webhook_subscriptions').count({ n: '*' }).first()).toEqual(before);

    const badId = encodeURIComponent('whk_\u0000');
    expect((await h.request('GET', `/api/v1/webhooks/${badId}/deliveries`, { key: h.key })).status).toBe(404);
    expect((await h.request('DELETE', `/api/v1/webhooks/${badId}`, { key: h.key })).status).toBe(404);

    const sub = await subscribe('/cursor');
    const cursor = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const forged: Array<[string, unknown[]]> = [
      [`/api/v1/webhooks/${sub.id}/deliveries`, ['2026-01-01T00:00:00.000Z', 'abc']],
      [`/api/v1/webhooks/${sub.id}/deliveries`, ['2026-01-01T00:00:00.000Z', 1.5]],
      [`/api/v1/webhooks/${sub.id}/deliveries`, ['2026-01-01T00:00:00.000Z', 1e30]],
      [`/api/v1/webhooks/${sub.id}/deliveries`, ['a\u0000', 1]],
      ['/api/v1/webhooks', ['a\u0000', 'whk_x']],
      ['/api/v1/webhooks', [1, 2]],
    ];
    for (const [path, values] of forged) {
      const res = await h.request<Problem>('GET', `${path}?cursor=${cursor(values)}`, { key: h.key });
      expect([path, values, res.status]).toEqual([path, values, 422]);
      expect(res.body.errors?.[0].pointer).toBe('#/query/cursor');
    }
    await h.request('DELETE', `/api/v1/webhooks/${sub.id}`, { key: h.key });
  });

  test('an org holds at most 50 subscriptions: every event fans out to each of them inside the ingest', async () => {
    const k = await h.createKey({ org: 'many' });
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
        key: k,
        body: { url: `${rx.url}/many-${i}`, events: ['scan.created'] },
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const refused = await h.request<Problem>('POST', '/api/v1/webhooks', {
      key: k,
      body: { url: `${rx.url}/many-50`, events: ['scan.created'] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'validation_failed',
      limit: 'webhooks_per_org',
      limit_value: 50,
      detail: expect.stringMatching(/50 webhook/) as unknown,
    });
    expect(await h.db('webhook_subscriptions').where({ org: 'many' })).toHaveLength(50);
    // Another org is not affected, and deleting one makes room again.
    const notMany = await subscribe('/not-many');
    await h.request('DELETE', `/api/v1/webhooks/${notMany.id}`, { key: h.key });
    expect((await h.request('DELETE', `/api/v1/webhooks/${ids[0]}`, { key: k })).status).toBe(204);
    const again = await h.request('POST', '/api/v1/webhooks', {
      key: k,
      body: { url: `${rx.url}/many-again`, events: ['scan.created'] },
    });
    expect(again.status).toBe(201);
  });

  test("another org's subscription answers 404 and receives nothing of this org", async () => {
    const other = await h.createKey({ org: 'other' });
    const mine = await subscribe('/iso');
    expect((await h.request('GET', `/api/v1/webhooks/${mine.id}/deliveries`, { key: other })).status).toBe(
      404,
    );
    expect((await h.request('DELETE', `/api/v1/webhooks/${mine.id}`, { key: other })).status).toBe(404);
    const theirs = (await h.request<WebhookList>('GET', '/api/v1/webhooks', { key: other })).body.data;
    expect(theirs.map((w: { id: string }) => w.id)).not.toContain(mine.id);
    await emit('scan.created', { id: 'scn_other' }, 'other');
    await worker.drain();
    expect(rx.received).toHaveLength(0);
    await h.request('DELETE', `/api/v1/webhooks/${mine.id}`, { key: h.key });
  });

  test('a delivery carries Standard Webhooks headers and verifies with standardwebhooks', async () => {
    const sub = await subscribe('/ok', ['deploy.completed']);
    const msgId = await emit('deploy.completed', { id: 'dep_1', passed: true });
    await emit('scan.created', { id: 'scn_ignored' }); // not subscribed
    await runUntil(worker, () => rx.received.length >= 1);
    await worker.drain();
    expect(rx.received).toHaveLength(1);
    const got = rx.received[0];
    expect(got.verified).toBe(true);
    expect(got.id).toBe(msgId);
    expect(got.headers['webhook-signature']).toMatch(/^v1,/);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.payload).toMatchObject({ type: 'deploy.completed', data: { id: 'dep_1', passed: true } });
    // Without PUBLIC_URL there is no address to link to, so the payload has no console link.
    expect(got.payload).not.toHaveProperty('console_url');
    expect(Number.isNaN(Date.parse(got.payload.timestamp))).toBe(false);
    const list = await attempts(sub.id);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      message_id: msgId,
      outcome: 'succeeded',
      response_status: 204,
      attempt: 1,
    });
    await h.request('DELETE', `/api/v1/webhooks/${sub.id}`, { key: h.key });
  });

  test('500 is retried until it succeeds; attempts are listed newest first with a cursor', async () => {
    const sub = await subscribe('/flaky', ['scan.created']);
    rx.respond = (n, _req, res) => {
      res.statusCode = n < 2 ? 500 : 200;
      res.end(n < 2 ? 'boom '.repeat(1000) : 'ok');
    };
    const msgId = await emit('scan.created', { id: 'scn_r' });
    await runUntil(worker, async () => (await attempts(sub.id)).some((a) => a.outcome === 'succeeded'));
    expect(rx.received.map((r) => r.id)).toEqual([msgId, msgId, msgId]);
    expect(rx.received.every((r) => r.verified)).toBe(true);
    const list = await attempts(sub.id);
    expect(list.map((a) => [a.attempt, a.outcome, a.response_status])).toEqual([
      [3, 'succeeded', 200],
      [2, 'retrying', 500],
      [1, 'retrying', 500],
    ]);
    expect(list[1].response_excerpt!.length).toBeLessThanOrEqual(1024);
    expect(list[1].next_attempt_at).not.toBeNull();

    const first = await h.request<WebhookAttemptList>(
      'GET',
      `/api/v1/webhooks/${sub.id}/deliveries?limit=2`,
      {
        key: h.key,
      },
    );
    expect(first.body.data).toHaveLength(2);
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = await h.request<WebhookAttemptList>(
      'GET',
      `/api/v1/webhooks/${sub.id}/deliveries?limit=2&cursor=${first.body.next_cursor}`,
      { key: h.key },
    );
    expect(second.body.data.map((a: { attempt: number }) => a.attempt)).toEqual([1]);
    expect(second.body.next_cursor).toBeNull();
    await h.request('DELETE', `/api/v1/webhooks/${sub.id}`, { key: h.key });
  });

  test('a delivery that fails every attempt is given up', async () => {
    const sub = await subscribe('/down', ['scan.created']);
    rx.respond = (_n, _req, res) => {
      res.statusCode = 503;
      res.end();
    };
    await emit('scan.created');
    await runUntil(worker, async () => (await attempts(sub.id)).some((a) => a.outcome === 'failed'));
    const list = await attempts(sub.id);
    expect(list.map((a) => a.outcome)).toEqual(['failed', 'retrying', 'retrying', 'retrying']);
    expect(list[0].next_attempt_at).toBeNull();
    await h.request('DELETE', `/api/v1/webhooks/${sub.id}`, { key: h.key });
  });

  test('410 disables the subscription and drops its pending deliveries', async () => {
    const sub = await subscribe('/gone', ['scan.created']);
    rx.respond = (_n, _req, res) => {
      res.statusCode = 410;
      res.end();
    };
    await emit('scan.created', { id: 'a' });
    await runUntil(worker, () => rx.received.length >= 1);
    await emit('scan.created', { id: 'b' }); // after disabling: no delivery is even created
    await worker.drain();
    await sleep(150);
    await worker.drain();
    expect(rx.received).toHaveLength(1);
    const listed = (await h.request<WebhookList>('GET', '/api/v1/webhooks', { key: h.key })).body.data.find(
      (w: { id: string }) => w.id === sub.id,
    );
    expect(listed?.status).toBe('disabled');
    expect(listed?.disabled_reason).toMatch(/410/);
    expect((await attempts(sub.id)).map((a) => [a.outcome, a.response_status])).toEqual([['failed', 410]]);
    await h.request('DELETE', `/api/v1/webhooks/${sub.id}`, { key: h.key });
  });

  test('a subscription that has failed for days is disabled; one success clears the failing streak', async () => {
    const sub = await subscribe('/days', ['scan.created']);
    rx.respond = (n, _req, res) => {
      res.statusCode = n === 0 ? 200 : 500;
      res.end();
    };
    await h
      .db('webhook_subscriptions')
      .where({ id: sub.id })
      .update({ failing_since: '2026-01-01T00:00:00.000Z' });
    await emit('scan.created');
    await worker.runOnce();
    expect(
      (await h.db<SubscriptionRow>('webhook_subscriptions').where({ id: sub.id }).first())!.failing_since,
    ).toBeNull();

    await emit('scan.created');
    await worker.runOnce(); // first failure starts the streak
    const streak = (await h.db<SubscriptionRow>('webhook_subscriptions').where({ id: sub.id }).first())!
      .failing_since;
    expect(streak).not.toBeNull();
    await h
      .db('webhook_subscriptions')
      .where({ id: sub.id })
      .update({ failing_since: new Date(Date.now() - 6 * 86_400_000).toISOString() });
    await sleep(80);
    await worker.runOnce(); // the retry fails too, six days into the streak
    const listed = (await h.request<WebhookList>('GET', '/api/v1/webhooks', { key: h.key })).body.data.find(
      (w: { id: string }) => w.id === sub.id,
    );
    expect(listed?.status).toBe('disabled');
    expect(listed?.disabled_reason).toMatch(/every delivery has failed since/);
    const pending = await h.db('webhook_deliveries').where({ subscription_id: sub.id, status: 'pending' });
    expect(pending).toHaveLength(0);
    await h.request('DELETE', `/api/v1/webhooks/${sub.id}`, { key: h.key });
  });

  test('a receiver that does not answer in time is a failed attempt', async () => {
    const sub = await subscribe('/slow', ['scan.created']);
    rx.respond = () => undefined; // never answers
    await emit('scan.created');
    await worker.runOnce();
    const [a] = await attempts(sub.id);
    expect(a).toMatchObject({ outcome: 'retrying', response_status: null });
    expect(a.error).toMatch(/no answer within 0.5 s/);
    expect(a.duration_ms).toBeGreaterThanOrEqual(450);
    await h.request('DELETE', `/api/v1/webhooks/${sub.id}`, { key: h.key });
  });

  test('redirects are not followed and Retry-After is honoured', async () => {
    const sub = await subscribe('/redirect', ['scan.created']);
    let redirected = 0;
    const target = http.createServer((_req, res) => {
      redirected++;
      res.end();
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    rx.respond = (n, _req, res) => {
      if (n === 0) {
        res.writeHead(307, { location: `http://127.0.0.1:${(target.address() as { port: number }).port}/` });
      } else {
        res.writeHead(429, { 'retry-after': '3600' });
      }
      res.end();
    };
    await emit('scan.created');
    await worker.runOnce();
    await sleep(120);
    await worker.runOnce();
    const list = await attempts(sub.id);
    expect(list.map((a) => a.response_status)).toEqual([429, 307]);
    expect(list[1].error).toMatch(/redirects are not followed/);
    expect(redirected).toBe(0);
    // The 429 asked for an hour: the next attempt is not before that.
    expect(Date.parse(list[0].next_attempt_at!) - Date.parse(list[0].attempted_at)).toBeGreaterThan(
      3_500_000,
    );
    target.close();
    await h.request('DELETE', `/api/v1/webhooks/${sub.id}`, { key: h.key });
  });

  test('a binary answer (NUL bytes) is recorded as an attempt, not left leased and re-sent', async () => {
    const sub = await subscribe('/binary', ['scan.created']);
    rx.respond = (_n, _req, res) => {
      res.statusCode = 500;
      res.end(Buffer.from([0x41, 0x00, 0x42, 0xff]));
    };
    await emit('scan.created');
    await worker.runOnce();
    const list = await attempts(sub.id);
    expect(list.map((a) => [a.attempt, a.outcome, a.response_status])).toEqual([[1, 'retrying', 500]]);
    expect(list[0].response_excerpt).toBe('A\uFFFDB\uFFFD');
    const [delivery] = await h.db<DeliveryRow>('webhook_deliveries').where({ subscription_id: sub.id });
    expect(delivery).toMatchObject({ attempts: 1, locked_by: null });
    await h.request('DELETE', `/api/v1/webhooks/${sub.id}`, { key: h.key });
  });

  test('a worker on a host with a long name (63 characters, as Kubernetes allows) still claims and delivers', async () => {
    const sub = await subscribe('/long-host', ['scan.created']);
    const hostname = jest.spyOn(os, 'hostname').mockReturnValue('a'.repeat(63));
    let longNamed: DeliveryWorker;
    try {
      longNamed = createDeliveryWorker(h.server.service.ctx, { timeoutMs: 2000 });
    } finally {
      hostname.mockRestore();
    }
    expect(longNamed.id.length).toBeLessThanOrEqual(60);
    await emit('scan.created');
    expect(await longNamed.runOnce()).toBe(1);
    await longNamed.stop();
    expect(rx.received).toHaveLength(1);
    await h.request('DELETE', `/api/v1/webhooks/${sub.id}`, { key: h.key });
  });

  test('deleting a subscription stops its pending deliveries', async () => {
    const sub = await subscribe('/deleted', ['*']);
    await emit('waiver.created');
    await emit('waiver.revoked');
    expect((await h.request('DELETE', `/api/v1/webhooks/${sub.id}`, { key: h.key })).status).toBe(204);
    await worker.drain();
    expect(rx.received).toHaveLength(0);
    expect(await h.db('webhook_deliveries').where({ subscription_id: sub.id })).toHaveLength(0);
  });

  test('the OpenAPI document describes every outgoing event under webhooks', async () => {
    const doc = (await h.request<OpenApiWebhooks>('GET', '/api/v1/openapi.json')).body;
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'deploy.claim_accepted',
      'deploy.completed',
      'key.created',
      'key.revoked',
      'key.rotated',
      'key.updated',
      'scan.created',
      'scan.deleted',
      'site.deleted',
      'sla.breached',
      'statement.published',
      'statement.review_due',
      'vpat.generated',
      'vpat.published',
      'vpat.refreshed',
      'vpat.reviewed',
      'waiver.created',
      'waiver.expired',
      'waiver.revoked',
      'webhook.paused',
      'webhook.ping',
    ]);
    const scan = doc.webhooks['scan.created'].post;
    expect(JSON.stringify(scan)).toContain('webhook-signature');
  });
});
