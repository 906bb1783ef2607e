import { RetentionSweep, type SweepLimits } from '../../api/services/retention.js';
import type { VpatReport } from '../helpers/api-types.js';
import { type DeployEvent } from '../../core/gate/deploy-event.js';
import { agedScan, daysAgo, shaOf } from '../helpers/aged-scans.js';
import { storedGateFingerprints } from '../helpers/gate-columns.js';
import { dbKinds, useHarness, type Harness } from '../helpers/harness.js';

function pages(n: number, issues: number) {
  return Array.from({ length: n }, (_, p) => ({
    url: `/p/${p}`,
    issues: Array.from({ length: issues }, (_, i) => ({
      rule: 'image-alt',
      impact: 'critical',
      selector: `#i-${p}-${i}`,
      html: `<img id="i-${p}-${i}">`,
    })),
  }));
}

async function count(h: Harness, table: string, where: Record<string, string> = {}) {
  return Number((await h.db(table).where(where).count({ n: '*' }))[0].n);
}

describe.each(dbKinds)('retention sweep (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });

  const scan = (siteId: string, branch: string, c: string, ageDays: number, n = 2, issues = 3) =>
    agedScan(h, h.key, { siteId, branch, c, ageDays, pages: pages(n, issues) });
  const exists = async (id: string) =>
    (await h.request('GET', `/api/v1/scans/${id}`, { key: h.key })).status === 200;
  /** Runs the sweep until a whole walk over the sites (wrap to wrap) removed nothing; returns the runs. */
  const sweepAll = async (sweep: RetentionSweep) => {
    let removedThisWalk = 0;
    for (let i = 1; i <= 200; i++) {
      const r = await sweep.run();
      removedThisWalk += r.deploys + r.scansMarked + r.scansRemoved;
      if (r.wrapped) {
        if (removedThisWalk === 0) return i;
        removedThisWalk = 0;
      }
    }
    throw new Error('the sweep never finished');
  };

  test('a baseline scan past its retention survives while its deploy event is kept; then both go', async () => {
    const unusedOld = await scan('shop', 'main', '0', 500);
    const baseline = await scan('shop', 'main', '1', 450);
    const head = await scan('shop', 'feature', '2', 440);
    const gate = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      body: { siteId: 'shop', sha: shaOf('2'), baseline_sha: shaOf('1') },
    });
    expect(gate.status).toBe(201);
    expect(gate.body.scan_id).toBe(head);
    expect(gate.body.baseline?.scan_id).toBe(baseline);
    const newestBase = await scan('shop', 'main', '3', 420);
    const recentFeature = await scan('shop', 'feature', '4', 10);
    const oldFeature = await scan('shop', 'feature', '5', 40);
    const evidence = await scan('shop', 'feature', '6', 45);
    const report = await h.request<VpatReport>('POST', '/api/v1/vpat/generate', {
      key: h.key,
      body: { siteId: 'shop', scan_id: evidence, product: { name: 'Shop', version: '1' } },
    });
    expect(report.status).toBe(201);
    expect(await storedGateFingerprints(h, oldFeature)).toBe(db === 'postgres' ? 6 : null);

    await sweepAll(new RetentionSweep(h.server.service.ctx));
    // Past 400 / 30 days and used by nothing: gone, rows and all.
    expect(await exists(unusedOld)).toBe(false);
    expect(await exists(oldFeature)).toBe(false);
    expect(await count(h, 'scans', { id: oldFeature })).toBe(0);
    expect(await count(h, 'scan_issues', { scan_id: oldFeature })).toBe(0);
    expect(await count(h, 'scan_pages', { scan_id: unusedOld })).toBe(0);
    expect(await storedGateFingerprints(h, oldFeature)).toBeNull();
    // Kept: the deploy event's head and baseline, the report's evidence, the newest base scan, a recent one.
    for (const id of [baseline, head, evidence, newestBase, recentFeature])
      expect([id, await exists(id)]).toEqual([id, true]);
    expect(await count(h, 'scan_issues', { scan_id: baseline })).toBe(6);
    expect(await storedGateFingerprints(h, baseline)).toBe(db === 'postgres' ? 6 : null);

    // The deploy event passes deploy_days: it goes, and so do the scans only it kept.
    await h
      .db('deploys')
      .where({ id: gate.body.id })
      .update({ created_at: daysAgo(401) });
    await sweepAll(new RetentionSweep(h.server.service.ctx));
    expect((await h.request('GET', `/api/v1/deploy/${gate.body.id}`, { key: h.key })).status).toBe(404);
    expect(await exists(baseline)).toBe(false);
    expect(await exists(head)).toBe(false);
    for (const id of [evidence, newestBase, recentFeature])
      expect([id, await exists(id)]).toEqual([id, true]);
    expect((await h.request('GET', `/api/v1/vpat/${report.body.id}`, { key: h.key })).status).toBe(200);
  });

  test('the newest full scan of the base branch is kept, the baseline partial scans after it never become', async () => {
    const full = await scan('part', 'main', 'e', 430);
    const partial = await agedScan(h, h.key, {
      siteId: 'part',
      branch: 'main',
      c: 'f',
      ageDays: 420,
      pages: pages(1, 1),
      scope: 'partial',
    });
    await sweepAll(new RetentionSweep(h.server.service.ctx));
    expect(await exists(full)).toBe(true);
    expect(await exists(partial)).toBe(false);
  });

  test("the periods are each site's own", async () => {
    const patched = await h.request('PATCH', '/api/v1/sites/short', {
      key: h.key,
      body: { retention: { base_branch_days: 5, other_branch_days: 1 } },
    });
    expect(patched.status).toBe(200);
    const older = await scan('short', 'main', 'a', 7);
    await scan('short', 'main', 'b', 6);
    const other = await scan('short', 'dev', 'c', 2);
    const elsewhere = await scan('long', 'dev', 'd', 2);
    await sweepAll(new RetentionSweep(h.server.service.ctx));
    expect(await exists(older)).toBe(false);
    expect(await exists(other)).toBe(false);
    expect(await exists(elsewhere)).toBe(true);
  });

  test('every statement of the sweep touches at most its batch of rows, and work spreads over runs', async () => {
    const limits: SweepLimits = { sites: 2, deployBatch: 3, deployStatements: 2, scans: 2, rowBatch: 7 };
    for (let i = 0; i < 5; i++) await scan(`batch-${i % 3}`, 'dev', 'e', 60, 4, 5);
    for (let i = 0; i < 8; i++) {
      const gate = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
        key: h.key,
        body: { siteId: 'batch-0', sha: shaOf('f') },
      });
      await h
        .db('deploys')
        .where({ id: gate.body.id })
        .update({ created_at: daysAgo(500) });
    }
    const deletes: Array<{ sql: string; rows: number }> = [];
    const onResponse = (response: unknown, q: { sql: string; method: string }) => {
      if (q.method === 'del') deletes.push({ sql: q.sql, rows: Number(response) });
    };
    h.db.on('query-response', onResponse);
    const sweep = new RetentionSweep(h.server.service.ctx, limits);
    let runs: number;
    try {
      runs = await sweepAll(sweep);
    } finally {
      h.db.off('query-response', onResponse);
    }
    const on = (table: string) => deletes.filter((d) => d.sql.startsWith(`delete from ${q(table)}`));
    const most = (table: string) => Math.max(...on(table).map((d) => d.rows));
    // 5 scans × 20 issues in statements of at most 7 rows; 8 deploy events in statements of at most 3.
    expect(on('scan_issues').reduce((n, d) => n + d.rows, 0)).toBeGreaterThanOrEqual(100);
    expect(most('scan_issues')).toBeLessThanOrEqual(7);
    expect(most('scan_pages')).toBeLessThanOrEqual(7);
    expect(most('scans')).toBeLessThanOrEqual(1);
    expect(on('deploys').reduce((n, d) => n + d.rows, 0)).toBe(8);
    expect(most('deploys')).toBeLessThanOrEqual(3);
    // Two sites per run, two scans marked per site: more than one run was needed.
    expect(runs).toBeGreaterThan(2);
    for (const site of ['batch-0', 'batch-1', 'batch-2'])
      expect(await count(h, 'scans', { site_id: site })).toBe(0);
  });

  const q = (table: string) => (db === 'postgres' ? `"${table}"` : `\`${table}\``);
});
