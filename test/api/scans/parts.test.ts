import { readFileSync } from 'node:fs';
import { removeExpiredOpenScans } from '../../../api/services/scans/parts.js';
import type {
  CreatedScan,
  OpenScan,
  Problem,
  ScanDetail,
  ScanList,
  ScanPartAccepted,
} from '../../helpers/api-types.js';
import { type DeployEvent } from '../../../core/gate/deploy-event.js';
import { dbKinds, useHarness, type Harness } from '../../helpers/harness.js';
import { storedGateFingerprints } from '../../helpers/gate-columns.js';
import { eventPayloads } from '../../helpers/outbox.js';

const SHA = 'b'.repeat(40);

function page(n: number, issues = 2) {
  return {
    url: `/p/${n}`,
    title: `Page ${n}`,
    http_status: 200,
    issues: Array.from({ length: issues }, (_, i) => ({
      rule: i % 2 ? 'label' : 'image-alt',
      impact: i % 2 ? 'serious' : 'critical',
      selector: `#el-${n}-${i}`,
      html: `<img id="el-${n}-${i}">`,
    })),
  };
}

const pagesFrom = (from: number, count: number) => Array.from({ length: count }, (_, i) => page(from + i));

/** An outbox row and its payload, the event envelope (api/outbox/record.ts). */

async function count(h: Harness, table: string, where: Record<string, string> = {}) {
  return Number((await h.db(table).where(where).count({ n: '*' }))[0].n);
}

describe.each(dbKinds)('scans in parts (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });
  let otherOrg: string;
  beforeAll(async () => {
    otherOrg = await h.createKey({ org: 'globex' });
  });

  const open = (body: Record<string, unknown> = {}) =>
    h.request<OpenScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        url: 'https://parts.example.com/',
        siteId: 'parts',
        sha: SHA,
        branch: 'main',
        complete: false,
        pages: [],
        ...body,
      },
    });
  /** Answers the open scan after the part (ScanPartAccepted), or a Problem when the part is refused. */
  const part = <T = ScanPartAccepted>(id: string, pages: unknown[], idem?: string, k = h.key) =>
    h.request<T>('POST', `/api/v1/scans/${id}/pages`, {
      key: k,
      body: { pages },
      headers: idem ? { 'idempotency-key': idem } : {},
    });

  test('an open scan is invisible until complete; parts get consecutive pages; completion writes one event', async () => {
    const opened = await open({ pages: pagesFrom(0, 2) });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      status: 'open',
      siteId: 'parts',
      pages_received: 2,
      issues_received: 4,
    });
    const id = opened.body.id;
    expect(opened.headers.get('location')).toBe(`/api/v1/scans/${id}`);
    expect(Date.parse(opened.body.expires_at ?? '') - Date.now()).toBeGreaterThan(23 * 3_600_000);

    // Invisible: read, list, gate.
    expect((await h.request('GET', `/api/v1/scans/${id}`, { key: h.key })).status).toBe(404);
    expect(
      (await h.request<ScanList>('GET', '/api/v1/scans?siteId=parts', { key: h.key })).body.data,
    ).toEqual([]);
    const gate = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      body: { siteId: 'parts', sha: SHA },
    });
    expect(gate.status).toBe(201);
    expect(gate.body.scan_id).toBeNull();
    expect(gate.body.reasons.map((r) => r.code)).toContain('no_scan');

    const first = await part(id, pagesFrom(2, 3), `${id}-1`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ pages_received: 5, issues_received: 10 });
    expect(first.body.part).toEqual({ first_page_index: 2, pages: 3, issues: 6, replayed: false });
    const second = await part(id, pagesFrom(5, 1), `${id}-2`);
    expect(second.body.part).toEqual({ first_page_index: 5, pages: 1, issues: 2, replayed: false });
    expect(await count(h, 'outbox_messages', { type: 'scan.created' })).toBe(0);
    expect(await storedGateFingerprints(h, id)).toBeNull();

    const done = await h.request<CreatedScan>('POST', `/api/v1/scans/${id}/complete`, { key: h.key });
    expect(done.status).toBe(200);
    // The gate's columns are stored with the completion (PostgreSQL), from every part's issues.
    expect(await storedGateFingerprints(h, id)).toBe(db === 'postgres' ? 12 : null);
    expect(done.body.summary).toEqual({
      pages: 6,
      issues: 12,
      by_impact: { critical: 6, serious: 6, moderate: 0, minor: 0, unknown: 0 },
      by_kind: { violation: 12, incomplete: 0 },
    });
    const read = await h.request<ScanDetail>('GET', `/api/v1/scans/${id}`, { key: h.key });
    expect(read.status).toBe(200);
    expect(read.body.pages.map((p) => [p.index, p.url])).toEqual(
      Array.from({ length: 6 }, (_, i) => [i, `/p/${i}`]),
    );
    expect(read.body.issues).toHaveLength(12);
    expect(
      (await h.request<ScanList>('GET', '/api/v1/scans?siteId=parts', { key: h.key })).body.data.map(
        (s) => s.id,
      ),
    ).toEqual([id]);
    const events = await eventPayloads(h.db, 'scan.created');
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ id });

    // Completing again answers the same scan without a second event; no more parts.
    const again = await h.request<CreatedScan>('POST', `/api/v1/scans/${id}/complete`, { key: h.key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(done.body);
    expect(await count(h, 'outbox_messages', { type: 'scan.created' })).toBe(1);
    expect((await part(id, pagesFrom(6, 1))).status).toBe(409);
  });

  test('a part retried with its Idempotency-Key is stored once, even when the replay record is gone', async () => {
    const id = (await open()).body.id;
    expect((await part(id, pagesFrom(0, 2), 'part-a')).status).toBe(200);
    const replay = await part(id, pagesFrom(0, 2), 'part-a');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    // As after a crash between the commit and the answer: the service's replay copy is not there.
    await h.db('idempotency_keys').where({ idempotency_key: 'part-a' }).delete();
    const retried = await part(id, pagesFrom(0, 2), 'part-a');
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({
      pages_received: 2,
      part: { first_page_index: 0, pages: 2, replayed: true },
    });
    await h.db('idempotency_keys').where({ idempotency_key: 'part-a' }).delete();
    expect((await part(id, pagesFrom(9, 1), 'part-a')).status).toBe(409);
    expect(await count(h, 'scan_pages', { scan_id: id })).toBe(2);
  });

  test('a bad part is refused with a pointer and stores nothing; limits apply per request', async () => {
    const id = (await open({ pages: pagesFrom(0, 1) })).body.id;
    const bad = await part<Problem>(id, [page(1), { url: '/x', issues: [{ rule: 'r', impact: 'huge' }] }]);
    expect(bad.status).toBe(422);
    expect(bad.body.errors![0].pointer).toBe('#/pages/1/issues/0/impact');
    expect(await count(h, 'scan_pages', { scan_id: id })).toBe(1);
    const done = await h.request<CreatedScan>('POST', `/api/v1/scans/${id}/complete`, { key: h.key });
    expect(done.body.summary.pages).toBe(1);
  });

  test('a part scanned by another axe-core version than the scan is refused, and stores nothing', async () => {
    const axe = JSON.parse(
      readFileSync(new URL('../../fixtures/axe/defects.json', import.meta.url), 'utf8'),
    ) as Record<string, unknown>;
    const id = (await open({ pages: [{ url: '/a', axe }] })).body.id;
    const older = { ...axe, testEngine: { name: 'axe-core', version: '4.10.3' } };
    const bad = await part<Problem>(id, [
      { url: '/b', axe },
      { url: '/c', axe: older },
    ]);
    expect(bad.status).toBe(422);
    expect(bad.body.errors![0].pointer).toBe('#/pages/1/axe/testEngine');
    expect(bad.body.errors![0].detail).toContain('4.14.1');
    expect(await count(h, 'scan_pages', { scan_id: id })).toBe(1);
    expect((await part(id, [{ url: '/b', axe }])).status).toBe(200);
    const done = await h.request<CreatedScan>('POST', `/api/v1/scans/${id}/complete`, { key: h.key });
    expect(done.body.summary.pages).toBe(2);
    const read = await h.request<{ engine: unknown }>('GET', `/api/v1/scans/${id}`, { key: h.key });
    expect(read.body.engine).toEqual({ name: 'axe-core', version: '4.14.1' });
  });

  test("another org's key gets 404 for an open scan, and a missing scan is 404", async () => {
    const id = (await open()).body.id;
    expect((await part(id, pagesFrom(0, 1), undefined, otherOrg)).status).toBe(404);
    expect((await h.request('POST', `/api/v1/scans/${id}/complete`, { key: otherOrg })).status).toBe(404);
    expect((await part('scn_doesnotexist', pagesFrom(0, 1))).status).toBe(404);
    expect(await count(h, 'scan_pages', { scan_id: id })).toBe(0);
  });
});

describe.each(dbKinds)('open scans expire (%s)', (db) => {
  const h = useHarness({ db, env: { OPEN_SCAN_TTL_HOURS: '0.0001' } });

  test('an open scan past its time takes no parts, cannot complete, and the sweep removes it with its rows', async () => {
    const key = await h.createKey({ org: 'acme' });
    const opened = await h.request<OpenScan>('POST', '/api/v1/scans', {
      key,
      body: { url: 'https://exp.example.com/', complete: false, pages: pagesFrom(0, 3) },
    });
    expect(opened.status).toBe(201);
    const id = opened.body.id;
    await new Promise((r) => setTimeout(r, 600));
    expect((await h.request('POST', `/api/v1/scans/${id}/pages`, { key, body: { pages: [] } })).status).toBe(
      404,
    );
    expect((await h.request('POST', `/api/v1/scans/${id}/complete`, { key })).status).toBe(404);
    expect(await removeExpiredOpenScans(h.server.service.ctx)).toBe(1);
    expect(await count(h, 'scans', { id })).toBe(0);
    expect(await count(h, 'scan_pages', { scan_id: id })).toBe(0);
    expect(await count(h, 'scan_issues', { scan_id: id })).toBe(0);
  });
});
