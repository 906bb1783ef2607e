import { createDeliveryWorker } from '../../../api/jobs/webhooks.js';
import type { CreatedKey, CreatedScan, CreatedWebhook, VpatReport, Waiver } from '../../helpers/api-types.js';
import { type DeployEvent } from '../../../core/gate/deploy-event.js';
import { dbKinds, startHarness } from '../../helpers/harness.js';
import { startReceiver } from '../../helpers/webhook-receiver.js';

const PUBLIC = 'https://a11y.corp.example';

describe.each(dbKinds)('webhook payloads link to the console under PUBLIC_URL (%s)', (db) => {
  test('scans, deploy events, report versions and waivers each carry console_url; key events do not', async () => {
    const h = await startHarness({ db, env: { WEBHOOK_ALLOW_PRIVATE: 'true', PUBLIC_URL: `${PUBLIC}/` } });
    const rx = await startReceiver();
    const worker = createDeliveryWorker(h.server.service.ctx, { retryDelaysMs: [0], timeoutMs: 2000 });
    try {
      const key = await h.createKey({ org: 'acme', scopes: ['ingest', 'gate', 'read', 'manage', 'admin'] });
      const sub = await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
        key,
        body: { url: `${rx.url}/in`, events: ['*'] },
      });
      rx.secrets.set('/in', sub.body.secret);
      const scan = await h.request<CreatedScan>('POST', '/api/v1/scans', {
        key,
        body: {
          siteId: 'shop',
          url: 'https://shop.example/',
          sha: 'a'.repeat(40),
          branch: 'main',
          pages: [{ url: '/', issues: [{ rule: 'image-alt', impact: 'critical', selector: 'img' }] }],
        },
      });
      const deploy = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
        key,
        body: { siteId: 'shop', sha: 'a'.repeat(40) },
      });
      const report = await h.request<VpatReport>('POST', '/api/v1/vpat/generate', {
        key,
        body: { siteId: 'shop', product: { name: 'Shop', version: '1' } },
      });
      const waiver = await h.request<Waiver>('POST', '/api/v1/waivers', {
        key,
        body: {
          siteId: 'shop',
          rule: 'image-alt',
          reason: 'Vendor fix in January',
          expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        },
      });
      const other = await h.request<CreatedKey>('POST', '/api/v1/keys', {
        key,
        body: { name: 'ci', scopes: ['ingest'] },
      });
      expect([scan.status, deploy.status, report.status, waiver.status, other.status]).toEqual([
        201, 201, 201, 201, 201,
      ]);

      const deadline = Date.now() + 15_000;
      while (rx.received.length < 5 && Date.now() < deadline) {
        await worker.runOnce();
        await new Promise((r) => setTimeout(r, 20));
      }
      await worker.drain();
      const links = Object.fromEntries(
        rx.received.map((d) => [d.payload.type, (d.payload as { console_url?: string }).console_url ?? null]),
      );
      expect(links).toEqual({
        'scan.created': `${PUBLIC}/scans/${scan.body.id}`,
        'deploy.completed': `${PUBLIC}/deploys/${deploy.body.id}`,
        'vpat.generated': `${PUBLIC}/reports/${report.body.id}`,
        'waiver.created': `${PUBLIC}/sites/shop`,
        'key.created': null,
      });
      expect(rx.received.every((d) => d.verified)).toBe(true);

      // The link is the console's page of that thing: a person who opens it is asked to sign in, then sent there.
      const opened = await fetch(links['deploy.completed']!.replace(PUBLIC, h.url), { redirect: 'manual' });
      expect(opened.headers.get('location')).toBe(
        `/sign-in?next=${encodeURIComponent(`/deploys/${deploy.body.id}`)}`,
      );
    } finally {
      await worker.stop();
      await rx.close();
      await h.close();
    }
  });
});
