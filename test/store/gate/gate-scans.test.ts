import { FINGERPRINT_VERSION } from '../../../core/matching/fingerprint.js';
import { Sha } from '../../../api/schemas/common.js';
import { findGateScans } from '../../../api/store/gate/gate-scans.js';
import { insertScanRow } from '../../../api/store/scans/writes.js';
import { dbKinds, startHarness, type Harness } from '../../helpers/harness.js';

/** Which scans the gate compares: chosen by the store's queries, on both databases. */
describe.each(dbKinds)('the gate scans (%s)', (db) => {
  let h: Harness;
  const org = 'acme';
  const scans = [
    { id: 'scn_a', sha: 'aaa1111', branch: 'feature', createdAt: '2026-11-20T10:00:00.000Z' },
    { id: 'scn_b', sha: 'aaa1111', branch: 'feature', createdAt: '2026-11-20T11:00:00.000Z' },
    { id: 'scn_m1', sha: 'aaa0001', branch: 'main', createdAt: '2026-11-20T09:00:00.000Z' },
    { id: 'scn_m2', sha: 'aaa0002', branch: 'main', createdAt: '2026-11-20T10:00:00.000Z' },
    // Same sha as the head, on main: not a baseline (it would compare the commit with itself).
    { id: 'scn_m3', sha: 'feed000', branch: 'main', createdAt: '2026-11-20T11:00:00.000Z' },
    // After the head scan: not a baseline.
    { id: 'scn_m4', sha: 'aaa0004', branch: 'main', createdAt: '2026-11-20T13:00:00.000Z' },
    { id: 'scn_f', sha: 'bbb0001', branch: 'feature', createdAt: '2026-11-20T11:30:00.000Z' },
    { id: 'scn_h', sha: 'feed000', branch: 'feature', createdAt: '2026-11-20T12:00:00.000Z' },
    // Another site's and another org's scans are never candidates.
    { id: 'scn_x', sha: 'aaa0003', branch: 'main', createdAt: '2026-11-20T10:30:00.000Z', siteId: 'other' },
    { id: 'scn_y', sha: 'aaa0005', branch: 'main', createdAt: '2026-11-20T10:45:00.000Z', org: 'globex' },
    // Partial scans (of some pages only) are never a baseline: not the later one on main, not one named.
    { id: 'scn_mp', sha: 'aaa0006', branch: 'main', createdAt: '2026-11-20T11:15:00.000Z', partial: true },
    { id: 'scn_p', sha: 'ddd0001', branch: 'preview', createdAt: '2026-11-20T11:20:00.000Z', partial: true },
  ];

  beforeAll(async () => {
    h = await startHarness({ db });
    await h.db.transaction(async (trx) => {
      for (const s of scans) {
        const head = {
          siteId: s.siteId ?? 'shop',
          url: 'https://shop.example/',
          sha: s.sha,
          branch: s.branch,
          engine: null,
          runAttempt: null,
          scope: s.partial ? ('partial' as const) : ('full' as const),
          rulesRun: null,
        };
        await insertScanRow(trx, s.org ?? org, s.id, head, {
          status: 'complete',
          createdAt: s.createdAt,
          expiresAt: null,
        });
      }
    });
  });
  afterAll(() => h.close());

  const find = (q: { sha: string; baselineSha?: string; baseBranch?: string }) =>
    findGateScans(h.db, { org, siteId: 'shop', baseBranch: 'main', ...q });

  test('the head is the latest scan with that sha, or none', async () => {
    expect((await find({ sha: 'aaa1111' })).head?.id).toBe('scn_b');
    expect((await find({ sha: 'ccc3333' })).head).toBeUndefined();
    // A sha is compared exactly; the API lowercases what a client sends.
    expect(Sha.parse('AAA1111')).toBe('aaa1111');
  });

  test('baseline_sha wins when given', async () => {
    expect((await find({ sha: 'feed000', baselineSha: 'bbb0001' })).baseline?.id).toBe('scn_f');
  });

  test('an unknown baseline_sha means no baseline (never a silent substitute)', async () => {
    const found = await find({ sha: 'feed000', baselineSha: 'ccc0000' });
    expect(found.head?.id).toBe('scn_h');
    expect(found.baseline).toBeUndefined();
  });

  test('else the latest earlier scan on the base branch with another sha', async () => {
    expect((await find({ sha: 'feed000' })).baseline?.id).toBe('scn_m2');
  });

  test('the base branch is the site setting', async () => {
    expect((await find({ sha: 'feed000', baseBranch: 'feature' })).baseline?.id).toBe('scn_f');
  });

  test('its fingerprint version comes along, so the reason can say when it differs', async () => {
    const found = await find({ sha: 'feed000' });
    expect(found.baseline?.fingerprintVersion).toBe(FINGERPRINT_VERSION);
  });

  test('a partial scan is never the baseline: the latest full one is, and none when there are only partial ones', async () => {
    const head = await find({ sha: 'feed000' });
    expect(head.baseline?.id).toBe('scn_m2');
    expect(head.partialOnly).toBeUndefined();
    const onlyPartial = await find({ sha: 'feed000', baseBranch: 'preview' });
    expect(onlyPartial).toMatchObject({ baseline: undefined, partialOnly: true });
    const named = await find({ sha: 'feed000', baselineSha: 'aaa0006' });
    expect(named).toMatchObject({ baseline: undefined, partialOnly: true });
    // A partial scan is a head like any other.
    expect((await find({ sha: 'aaa0006' })).head).toMatchObject({ id: 'scn_mp', scope: 'partial' });
  });

  test('else none', async () => {
    const found = await find({ sha: 'feed000', baseBranch: 'develop' });
    expect(found.head?.id).toBe('scn_h');
    expect(found.baseline).toBeUndefined();
  });
});
