import { RetentionSweep } from '../../api/services/retention.js';
import { holdScans } from '../../api/store/scans/holds.js';
import type { Problem } from '../helpers/api-types.js';
import { type DeployEvent } from '../../core/gate/deploy-event.js';
import { agedScan, shaOf } from '../helpers/aged-scans.js';
import { dbKinds, useHarness, type Harness } from '../helpers/harness.js';

async function count(h: Harness, table: string, where: Record<string, string>) {
  return Number((await h.db(table).where(where).count({ n: '*' }))[0].n);
}

/**
 * Retention and deletion against writes in flight: a deploy event or a report is never stored with a
 * scan that was marked deleted after the decision read it, and the sweep never marks a scan that such a
 * write is storing.
 */
describe.each(dbKinds)('retention and deletion against writes in flight (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });

  const onePage = [
    { url: '/', issues: [{ rule: 'image-alt', impact: 'critical', selector: '#a', html: '<img id="a">' }] },
  ];
  const scan = (siteId: string, branch: string, c: string, ageDays: number) =>
    agedScan(h, h.key, { siteId, branch, c, ageDays, pages: onePage });

  /**
   * Marks `id` deleted (as retention or a deletion would) the moment the request's first statement on
   * `table` starts: after the decision chose its scans, before it stores anything.
   */
  function deleteWhenRead(table: string, id: string) {
    let marked: Promise<unknown> | undefined;
    const onQuery = (q: { sql: string }) => {
      if (marked || !q.sql.includes(table)) return;
      marked = Promise.resolve(h.db('scans').where({ id }).update({ status: 'deleted' }));
    };
    h.db.on('query', onQuery);
    return async () => {
      h.db.off('query', onQuery);
      expect(marked).toBeDefined();
      await marked;
    };
  }

  test('a baseline deleted while the gate decides is not used: the decision is taken again', async () => {
    const older = await scan('race', 'main', '1', 3);
    const newer = await scan('race', 'main', '2', 2);
    const head = await scan('race', 'feature', '3', 1);
    // Both scans' pages are read beside their issues, once the scans are chosen (on PostgreSQL the
    // issues come from the gate's stored columns, not from scan_issues).
    const done = deleteWhenRead('scan_pages', newer);
    const res = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      body: { siteId: 'race', sha: shaOf('3') },
    });
    await done();
    expect(res.status).toBe(201);
    expect(res.body.scan_id).toBe(head);
    expect(res.body.baseline?.scan_id).toBe(older);
    expect(await count(h, 'deploys', { baseline_scan_id: newer })).toBe(0);
  });

  test('a report whose scan is deleted while it is made is refused, and nothing is stored', async () => {
    const evidence = await scan('report-race', 'main', '4', 1);
    const done = deleteWhenRead('scan_issues', evidence);
    const res = await h.request<Problem>('POST', '/api/v1/vpat/generate', {
      key: h.key,
      body: { siteId: 'report-race', scan_id: evidence, product: { name: 'Shop', version: '1' } },
    });
    await done();
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain('was deleted while the report was being made');
    expect(await count(h, 'vpat_reports', { scan_id: evidence })).toBe(0);
    expect(await count(h, 'outbox_messages', { type: 'vpat.generated', org: 'acme' })).toBe(0);
  });

  test('the sweep waits for a deploy event being written with a scan, and keeps the scan', async () => {
    // A stored deploy event to copy: the one written below differs only in its id and head scan.
    await scan('template', 'feature', '5', 0);
    const made = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      body: { siteId: 'template', sha: shaOf('5') },
    });
    expect(made.status).toBe(201);
    const template = (await h.db('deploys').where({ id: made.body.id }).first()) as Record<string, unknown>;
    const old = await scan('held', 'feature', '6', 45);

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const writing = h.db.transaction(async (trx) => {
      expect(await holdScans(trx, [old])).toBe(true);
      await released;
      await trx('deploys').insert({ ...template, id: 'dep_held', site_id: 'held', scan_id: old });
    });
    const sweeping = new RetentionSweep(h.server.service.ctx).run();
    // The sweep has read its candidates (the scan is 45 days old on a branch kept 30) and waits.
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await writing;
    await sweeping;
    expect((await h.request('GET', `/api/v1/scans/${old}`, { key: h.key })).status).toBe(200);
    expect(await count(h, 'scans', { id: old, status: 'complete' })).toBe(1);
  });
});
