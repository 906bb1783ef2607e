import { RetentionSweep } from '../../../api/services/retention.js';
import type { CreatedScan, OpenScan, Problem, ScanList, VpatReport } from '../../helpers/api-types.js';
import { type DeployEvent } from '../../../core/gate/deploy-event.js';
import { dbKinds, useHarness, type Harness } from '../../helpers/harness.js';
import { eventPayloads } from '../../helpers/outbox.js';

const sha = (c: string) => c.repeat(40);
const pages = [
  { url: '/', issues: [{ rule: 'image-alt', impact: 'critical', selector: '#a', html: '<img id="a">' }] },
  { url: '/b', issues: [{ rule: 'label', impact: 'serious', selector: '#b', html: '<input id="b">' }] },
];

async function count(h: Harness, table: string, where: Record<string, string> = {}) {
  return Number((await h.db(table).where(where).count({ n: '*' }))[0].n);
}

describe.each(dbKinds)('deleting scans and sites (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });
  let globex: string;
  let reader: string;
  beforeAll(async () => {
    globex = await h.createKey({ org: 'globex' });
    reader = await h.createKey({ org: 'acme', scopes: ['read'] });
  });

  async function scan(siteId: string, c: string, key = h.key, branch = 'main') {
    const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key,
      body: { url: 'https://d.example.com/', siteId, sha: sha(c), branch, pages },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  }
  /** 204 without a body, or a Problem. */
  const del = (path: string, key = h.key) => h.request<Problem | undefined>('DELETE', path, { key });

  test('an unused scan is deleted with its pages and issues, and a scan.deleted event', async () => {
    const id = await scan('one', '1');
    expect((await del(`/api/v1/scans/${id}`, reader)).status).toBe(403);
    expect(await count(h, 'scan_issues', { scan_id: id })).toBe(2);
    expect((await del(`/api/v1/scans/${id}`)).status).toBe(204);
    expect((await h.request('GET', `/api/v1/scans/${id}`, { key: h.key })).status).toBe(404);
    expect(await count(h, 'scans', { id })).toBe(0);
    expect(await count(h, 'scan_pages', { scan_id: id })).toBe(0);
    expect(await count(h, 'scan_issues', { scan_id: id })).toBe(0);
    expect((await eventPayloads(h.db, 'scan.deleted')).map((e) => e.data)).toContainEqual({
      id,
      siteId: 'one',
      deleted_at: expect.any(String) as unknown,
    });
    expect((await del(`/api/v1/scans/${id}`)).status).toBe(404);
  });

  test('a scan a deploy event or a report still uses is a 409 naming it, and stays', async () => {
    const base = await scan('used', '2');
    const head = await scan('used', '3', h.key, 'feature');
    const gate = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      body: { siteId: 'used', sha: sha('3') },
    });
    expect(gate.body.baseline?.scan_id).toBe(base);
    for (const [id, role] of [
      [base, 'baseline'],
      [head, 'head'],
    ]) {
      const res = await del(`/api/v1/scans/${id}`);
      expect(res.status).toBe(409);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body!.detail).toContain(`Deploy event ${gate.body.id}`);
      expect(res.body!.detail).toContain(`as its ${role} scan`);
      expect((await h.request('GET', `/api/v1/scans/${id}`, { key: h.key })).status).toBe(200);
    }
    const evidence = await scan('used', '4', h.key, 'other');
    const report = await h.request<VpatReport>('POST', '/api/v1/vpat/generate', {
      key: h.key,
      body: { siteId: 'used', scan_id: evidence, product: { name: 'Used', version: '1' } },
    });
    const res = await del(`/api/v1/scans/${evidence}`);
    expect(res.status).toBe(409);
    expect(res.body!.detail).toContain(`VPAT report ${report.body.id} uses this scan as evidence`);
    expect(await count(h, 'scan_issues', { scan_id: evidence })).toBe(2);
  });

  test("another org's scan or site is a 404, and nothing of it is deleted", async () => {
    const id = await scan('shared-name', '5');
    const theirs = await scan('shared-name', '6', globex);
    const before = await count(h, 'scan_issues');
    expect((await del(`/api/v1/scans/${id}`, globex)).status).toBe(404);
    expect((await del(`/api/v1/scans/${theirs}`)).status).toBe(404);
    expect((await del('/api/v1/sites/only-acme', globex)).status).toBe(404);
    expect(await count(h, 'scan_issues')).toBe(before);
    expect((await h.request('GET', `/api/v1/scans/${id}`, { key: h.key })).status).toBe(200);

    // Deleting globex's site of the same name leaves acme's alone.
    expect((await del('/api/v1/sites/shared-name', globex)).status).toBe(204);
    await new RetentionSweep(h.server.service.ctx).run();
    expect(await count(h, 'scans', { id: theirs })).toBe(0);
    expect((await h.request('GET', '/api/v1/sites/shared-name', { key: h.key })).status).toBe(200);
    expect((await h.request('GET', `/api/v1/scans/${id}`, { key: h.key })).status).toBe(200);
    expect(await count(h, 'scan_issues', { scan_id: id })).toBe(2);
  });

  test('deleting a site removes everything of it, with a site.deleted event', async () => {
    const ids = [await scan('gone', '7'), await scan('gone', '8', h.key, 'feature')];
    const gate = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      body: { siteId: 'gone', sha: sha('8') },
    });
    const waiver = await h.request('POST', '/api/v1/waivers', {
      key: h.key,
      body: {
        siteId: 'gone',
        rule: 'label',
        reason: 'vendor widget',
        expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      },
    });
    expect(waiver.status).toBe(201);
    const report = await h.request<VpatReport>('POST', '/api/v1/vpat/generate', {
      key: h.key,
      body: { siteId: 'gone', product: { name: 'Gone', version: '1' } },
    });
    expect(report.status).toBe(201);
    expect((await del('/api/v1/sites/gone', reader)).status).toBe(403);

    expect((await del('/api/v1/sites/gone')).status).toBe(204);
    expect((await h.request('GET', '/api/v1/sites/gone', { key: h.key })).status).toBe(404);
    expect((await h.request<ScanList>('GET', '/api/v1/scans?siteId=gone', { key: h.key })).body.data).toEqual(
      [],
    );
    expect((await h.request('GET', `/api/v1/deploy/${gate.body.id}`, { key: h.key })).status).toBe(404);
    expect((await h.request('GET', `/api/v1/vpat/${report.body.id}`, { key: h.key })).status).toBe(404);
    expect(await count(h, 'waivers', { site_id: 'gone' })).toBe(0);
    const [event] = (await eventPayloads(h.db, 'site.deleted')).filter((e) => e.data.siteId === 'gone');
    expect(event.data.removed).toEqual({ scans: 2, deploys: 1, reports: 1, waivers: 1 });
    // The pages and issues go in batches after the answer.
    expect(await count(h, 'scan_issues', { scan_id: ids[0] })).toBe(2);
    await new RetentionSweep(h.server.service.ctx).run();
    expect(await count(h, 'scans', { site_id: 'gone' })).toBe(0);
    for (const id of ids) {
      expect(await count(h, 'scan_issues', { scan_id: id })).toBe(0);
      expect(await count(h, 'scan_pages', { scan_id: id })).toBe(0);
    }
    // A new scan under the same id starts a new site, with none of the old records.
    await scan('gone', '9');
    expect(
      (await h.request<ScanList>('GET', '/api/v1/scans?siteId=gone', { key: h.key })).body.data,
    ).toHaveLength(1);
  });

  test('a site with a scan still receiving parts is a 409 naming the scan', async () => {
    await scan('uploading', 'a');
    const open = await h.request<OpenScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: { url: 'https://d.example.com/', siteId: 'uploading', complete: false, pages: [] },
    });
    const res = await del('/api/v1/sites/uploading');
    expect(res.status).toBe(409);
    expect(res.body!.detail).toContain(`Scan ${open.body.id} of this site is still receiving parts`);
    expect((await h.request('GET', '/api/v1/sites/uploading', { key: h.key })).status).toBe(200);
    expect((await del(`/api/v1/scans/${open.body.id}`)).status).toBe(204);
    expect((await del('/api/v1/sites/uploading')).status).toBe(204);
  });
});
