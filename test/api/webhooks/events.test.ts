import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createDeliveryWorker } from '../../../api/jobs/webhooks.js';
import type { DeliveryWorker } from '../../../api/outbox/delivery-worker.js';
import type { CreatedScan, CreatedWebhook, VpatReport, Waiver } from '../../helpers/api-types.js';
import { type DeployEvent } from '../../../core/gate/deploy-event.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';
import { sleep } from '../../helpers/wait.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

const SHA_BASE = 'b'.repeat(40);
const SHA_HEAD = 'c'.repeat(40);

/**
 * The events a subscriber receives come from the real features (not hand-written outbox rows), are
 * signed, and match the payload schemas the OpenAPI document publishes under `webhooks`.
 */
describe.each(dbKinds)('webhook events from the features (%s)', (db) => {
  let rx: Receiver;
  let worker: DeliveryWorker;
  // Declared before the harness, so that it runs before the harness closes (afterAll hooks run in order).
  afterAll(async () => {
    await worker.stop();
    await rx.close();
  });
  const h = useHarness({ db, org: 'acme', env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });

  beforeAll(async () => {
    worker = createDeliveryWorker(h.server.service.ctx, { retryDelaysMs: [0, 50], timeoutMs: 2000 });
    rx = await startReceiver();
  });

  test('scan, gate, waiver and VPAT events arrive signed and match their published schemas', async () => {
    const sub = await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
      key: h.key,
      body: { url: rx.url + '/all', events: ['*'] },
    });
    expect(sub.status).toBe(201);
    rx.secrets.set('/all', sub.body.secret);

    const source = { path: 'src/Cart.tsx', line: 42, column: 7, method: 'attribute' };
    const page = (rule: string) => ({
      url: 'https://shop.example/cart',
      issues: [{ rule, impact: 'serious', selector: '#buy', wcag: ['1.4.3'], source }],
    });
    const post = async <T>(path: string, body: unknown) => {
      const res = await h.request<T>('POST', path, { key: h.key, body });
      expect(res.status).toBe(201);
      return res.body;
    };
    await post<CreatedScan>('/api/v1/scans', {
      siteId: 'shop',
      url: 'https://shop.example/',
      sha: SHA_BASE,
      branch: 'main',
      pages: [page('color-contrast')],
    });
    const head = await post<CreatedScan>('/api/v1/scans', {
      siteId: 'shop',
      url: 'https://shop.example/',
      sha: SHA_HEAD,
      branch: 'feature',
      pages: [page('image-alt')],
    });
    const deploy = await post<DeployEvent>('/api/v1/deploy/trigger', { siteId: 'shop', sha: SHA_HEAD });
    const waiver = await post<Waiver>('/api/v1/waivers', {
      siteId: 'shop',
      rule: 'image-alt',
      reason: 'decorative images, fixed next sprint',
      expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    });
    const revoked = await h.request('DELETE', `/api/v1/waivers/${waiver.id}`, { key: h.key });
    expect(revoked.status).toBeLessThan(300);
    const vpat = await post<VpatReport>('/api/v1/vpat/generate', {
      siteId: 'shop',
      scan_id: head.id,
      product: { name: 'Shop', version: '1.0' },
    });

    const expected = ['scan.created', 'scan.created', 'deploy.completed', 'waiver.created', 'waiver.revoked'];
    expected.push('vpat.generated');
    const deadline = Date.now() + 15_000;
    while (rx.received.length < expected.length && Date.now() < deadline) {
      await worker.runOnce();
      await sleep(20);
    }
    const types = rx.received.map((r) => r.payload.type).sort();
    expect(types).toEqual([...expected].sort());
    expect(rx.received.every((r) => r.verified)).toBe(true);

    const doc = (await h.request<Record<string, unknown>>('GET', '/api/v1/openapi.json')).body;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, 'openapi');
    for (const r of rx.received) {
      const pointer = `openapi#/webhooks/${r.payload.type}/post/requestBody/content/application~1json/schema`;
      const validate = ajv.getSchema(pointer);
      expect(validate).toBeDefined();
      const ok = validate!(r.payload);
      if (!ok) throw new Error(`${r.payload.type}: ${ajv.errorsText(validate!.errors)}`);
    }

    const byType = (t: string) => rx.received.filter((r) => r.payload.type === t).map((r) => r.payload.data);
    expect(byType('scan.created').map((d) => d.id)).toContain(head.id);
    expect(byType('deploy.completed')[0]).toMatchObject({
      id: deploy.id,
      sha: SHA_HEAD,
      passed: deploy.passed,
      // Where the new issue comes from travels with the event.
      new_issues: [{ rule: 'image-alt', source }],
    });
    expect(byType('waiver.created')[0]).toMatchObject({ id: waiver.id, rule: 'image-alt' });
    expect(byType('waiver.revoked')[0]).toMatchObject({ id: waiver.id, status: 'revoked' });
    expect(byType('vpat.generated')[0]).toMatchObject({ id: vpat.id, scan_id: head.id, status: vpat.status });
  });
});
