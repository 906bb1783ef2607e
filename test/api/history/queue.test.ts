import { keepQueuedHistory } from '../../../api/services/history/keep.js';
import type { SiteHistory } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { sleep } from '../../helpers/wait.js';

// The ingest queues a full base-branch scan for the history and returns; the history job keeps it soon
// after, and a read of the history keeps what is still queued first, so no read misses a scan. Whoever
// takes a scan off the queue keeps it, once.

const DAY_MS = 86_400_000;
const start = Date.parse(`${new Date().toISOString().slice(0, 10)}T10:00:00Z`) - 10 * DAY_MS;
const at = (day: number) => new Date(start + day * DAY_MS).toISOString();

/** Day 0: /, /cart with two issues; day 1: one fixed; day 2: the other fixed, a new one; day 3: back. */
const STORY: Array<Array<[page: string, rule: string, selector: string]>> = [
  [
    ['/', 'image-alt', '#logo'],
    ['/cart', 'label', '#q'],
  ],
  [['/', 'image-alt', '#logo']],
  [['/cart', 'button-name', '#go']],
  [
    ['/cart', 'button-name', '#go'],
    ['/cart', 'label', '#q'],
  ],
];

describe.each(dbKinds)('the history queue (%s)', (db) => {
  const h = useHarness({ db, org: 'queue' });
  const jobs = useHarness({ db, org: 'queue-jobs', startJobs: true });

  const scan = async (harness: typeof h, siteId: string, day: number, branch = 'main') => {
    const res = await harness.request<{ id: string }>('POST', '/api/v1/scans', {
      key: harness.key,
      body: {
        siteId,
        url: `https://${siteId}.example/`,
        branch,
        scanned_at: at(day),
        pages: ['/', '/cart'].map((p) => ({
          url: `https://${siteId}.example${p}`,
          issues: STORY[day]
            .filter(([page]) => page === p)
            .map(([, rule, selector]) => ({ rule, impact: 'serious', selector })),
        })),
      },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const queued = async (harness: typeof h, siteId: string) =>
    (
      await harness
        .db('history_queue')
        .where({ site_id: siteId })
        .select<Array<{ scan_id: string }>>('scan_id')
    ).map((r) => r.scan_id);
  const spans = async (harness: typeof h, siteId: string) =>
    Number((await harness.db('history_spans').where({ site_id: siteId }).count({ n: '*' }))[0].n);
  const history = async (siteId: string) =>
    (
      await h.request<SiteHistory>(
        'GET',
        `/api/v1/sites/${siteId}/history?interval=day&from=${at(0).slice(0, 10)}&to=${at(3).slice(0, 10)}`,
        { key: h.key },
      )
    ).body.points.map((p) => [p.start, p.open_total, p.new, p.fixed, p.regressions]);

  test('the ingest queues a base-branch scan and keeps nothing; the first read keeps it', async () => {
    const id = await scan(h, 'read-site', 0);
    expect(await queued(h, 'read-site')).toEqual([id]);
    expect(await spans(h, 'read-site')).toBe(0);
    // Another branch is never part of the history: not queued.
    await scan(h, 'read-site', 1, 'feature');
    expect(await queued(h, 'read-site')).toEqual([id]);

    expect((await history('read-site'))[0]).toEqual([at(0).slice(0, 10), 2, 2, 0, 0]);
    expect(await queued(h, 'read-site')).toEqual([]);
    expect(await spans(h, 'read-site')).toBe(2);
  });

  test('scans kept by three drains at once make the same history as scans read one by one', async () => {
    // One site read after each scan, the other with its four scans queued, sent in another order.
    for (const day of [0, 1, 2, 3]) {
      await scan(h, 'one-by-one', day);
      await history('one-by-one');
    }
    for (const day of [2, 0, 3, 1]) await scan(h, 'all-at-once', day);
    expect(await queued(h, 'all-at-once')).toHaveLength(4);
    const kept = await Promise.all([1, 2, 3].map(() => keepQueuedHistory(h.db, { org: 'queue' })));
    expect(kept.reduce((a, b) => a + b, 0)).toBe(4);
    expect(await queued(h, 'all-at-once')).toEqual([]);
    const expected = [
      [at(0).slice(0, 10), 2, 2, 0, 0],
      [at(1).slice(0, 10), 1, 0, 1, 0],
      [at(2).slice(0, 10), 1, 1, 1, 0],
      [at(3).slice(0, 10), 2, 0, 0, 1],
    ];
    expect(await history('one-by-one')).toEqual(expected);
    expect(await history('all-at-once')).toEqual(expected);
    // A scan older than the last kept one replays the days from its own on.
    for (const day of [0, 1, 3, 2]) {
      await scan(h, 'late', day);
      await history('late');
    }
    expect(await history('late')).toEqual(expected);

    // The org view counts a range from the totals kept with each day: the same as its days summed.
    const view = async (from: number, to: number) => {
      const res = await h.request<{
        sites: Array<{
          siteId: string;
          new: number;
          fixed: number;
          regressions: number;
          open_before: number;
        }>;
      }>('GET', `/api/v1/portfolio?from=${at(from).slice(0, 10)}&to=${at(to).slice(0, 10)}`, { key: h.key });
      expect(res.status).toBe(200);
      return Object.fromEntries(
        res.body.sites
          .filter((site) => ['one-by-one', 'all-at-once', 'late'].includes(site.siteId))
          .map((site) => [site.siteId, [site.open_before, site.new, site.fixed, site.regressions]]),
      );
    };
    const same = (figures: number[]) => ({ 'one-by-one': figures, 'all-at-once': figures, late: figures });
    expect(await view(0, 3)).toEqual(same([0, 3, 2, 1]));
    expect(await view(1, 3)).toEqual(same([2, 1, 2, 1]));
    expect(await view(2, 2)).toEqual(same([1, 1, 1, 0]));
  });

  test('the history job keeps a queued scan with no read at all', async () => {
    await scan(jobs, 'job-site', 0);
    const until = Date.now() + 15_000;
    while ((await queued(jobs, 'job-site')).length > 0 && Date.now() < until) await sleep(100);
    expect(await queued(jobs, 'job-site')).toEqual([]);
    expect(await spans(jobs, 'job-site')).toBe(2);
  });
});
