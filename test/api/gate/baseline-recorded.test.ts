import type { CreatedScan, DeployEvent } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';

const critical = { rule: 'image-alt', impact: 'critical', selector: '#hero > img' };

describe.each(dbKinds)('the first run (%s)', (db) => {
  const h = useHarness({ db, org: 'first' });

  async function scan(siteId: string, sha: string, branch: string) {
    const r = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: { siteId, url: 'https://first.example/', sha, branch, pages: [{ url: '/', issues: [critical] }] },
    });
    expect(r.status).toBe(201);
  }
  const trigger = (siteId: string, sha: string) =>
    h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', { key: h.key, body: { siteId, sha } });

  test("the base branch's first scan passes with baseline_recorded; its issues are the debt to start from", async () => {
    await scan('fresh', 'a'.repeat(40), 'main');
    const e = await trigger('fresh', 'a'.repeat(40));
    expect(e.status).toBe(201);
    expect(e.body.passed).toBe(true);
    expect(e.body.reasons.map((r) => r.code)).toEqual(['baseline_recorded']);
    expect(e.body.baseline).toMatchObject({ scan_id: null, strategy: 'none' });
    // The next commit on a branch is compared with it: the same issue is existing, not new.
    await scan('fresh', 'b'.repeat(40), 'feature');
    const next = await trigger('fresh', 'b'.repeat(40));
    expect(next.body).toMatchObject({ passed: true, reasons: [], counts: { new: 0, existing: 1 } });
  });

  test('on another branch, no baseline still means every issue is new', async () => {
    await scan('branch-first', 'c'.repeat(40), 'feature');
    const e = await trigger('branch-first', 'c'.repeat(40));
    expect(e.body.passed).toBe(false);
    expect(e.body.reasons.map((r) => r.code)).toEqual(['critical_issues']);
    expect(e.body.counts.new).toBe(1);
  });

  test('a later base-branch commit is judged against the earlier one, not recorded again', async () => {
    await scan('twice', 'd'.repeat(40), 'main');
    await trigger('twice', 'd'.repeat(40));
    await scan('twice', 'e'.repeat(40), 'main');
    const e = await trigger('twice', 'e'.repeat(40));
    expect(e.body.reasons).toEqual([]);
    expect(e.body.counts).toMatchObject({ new: 0, existing: 1 });
  });
});
