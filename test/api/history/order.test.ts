import type { HistoryIssueList, SiteHistory } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';

const DAY_MS = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const D0 = Date.parse(`${today}T08:00:00Z`) - 30 * DAY_MS;
/** Day `day` of the story, `hour` hours after 08:00 UTC. */
const at = (day: number, hour = 0) => new Date(D0 + day * DAY_MS + hour * 3_600_000).toISOString();

type Issue = [page: string, rule: string, impact: string, selector: string];
const A: Issue = ['/', 'image-alt', 'critical', '#logo'];
const B: Issue = ['/', 'label', 'serious', '#q'];
const C: Issue = ['/cart', 'color-contrast', 'serious', '#buy'];
const D: Issue = ['/old', 'region', 'moderate', '#x'];
const E: Issue = ['/cart', 'link-name', 'minor', '#nav'];

interface StoryScan {
  at: string;
  pages: string[];
  issues: Issue[];
  /** Sent in two parts and completed, rather than in one request. */
  parts?: boolean;
}

/**
 * One site's scans: new issues, fixes, a regression, a page leaving the scans and coming back, and two
 * scans on one day (day 3, whose figures add up over both). A scan newer than the site's others is kept
 * from the open spans alone; one in the past is replayed with every scan after it.
 */
const story: StoryScan[] = [
  { at: at(0), pages: ['/', '/cart', '/old'], issues: [A, B, C, D] },
  { at: at(1), pages: ['/', '/cart'], issues: [A, C, E] },
  { at: at(3), pages: ['/', '/cart', '/old'], issues: [A, D, E], parts: true },
  { at: at(3, 6), pages: ['/', '/cart', '/old'], issues: [A, B, D] },
  { at: at(6), pages: ['/', '/cart', '/old'], issues: [B, C, D] },
  { at: at(6, 2), pages: ['/', '/cart'], issues: [A, B, C, E] },
  { at: at(9), pages: ['/', '/cart', '/old'], issues: [D] },
];

describe.each(dbKinds)('history kept in order and out of order (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });

  const send = async (siteId: string, s: StoryScan) => {
    const pages = s.pages.map((p) => ({
      url: `https://${siteId}.example${p}`,
      issues: s.issues
        .filter((i) => i[0] === p)
        .map(([, rule, impact, selector]) => ({ rule, impact, selector })),
    }));
    const head = { siteId, url: `https://${siteId}.example/`, branch: 'main', scanned_at: s.at };
    if (!s.parts) {
      const res = await h.request('POST', '/api/v1/scans', { key: h.key, body: { ...head, pages } });
      expect(res.status).toBe(201);
      return;
    }
    const open = await h.request<{ id: string }>('POST', '/api/v1/scans', {
      key: h.key,
      body: { ...head, complete: false, pages: pages.slice(0, 1) },
    });
    expect(open.status).toBe(201);
    const part = await h.request('POST', `/api/v1/scans/${open.body.id}/pages`, {
      key: h.key,
      body: { pages: pages.slice(1) },
    });
    expect(part.status).toBe(200);
    const done = await h.request('POST', `/api/v1/scans/${open.body.id}/complete`, { key: h.key });
    expect(done.status).toBe(200);
  };
  const keptHistory = async (siteId: string) => {
    const days = await h.request<SiteHistory>(
      'GET',
      `/api/v1/sites/${siteId}/history?interval=day&from=${at(0).slice(0, 10)}&to=${at(10).slice(0, 10)}`,
      { key: h.key },
    );
    const issues = await h.request<HistoryIssueList>('GET', `/api/v1/sites/${siteId}/history/issues`, {
      key: h.key,
    });
    expect([days.status, issues.status]).toEqual([200, 200]);
    return { points: days.body.points, issues: issues.body.data };
  };

  test('the same scans in time order and shuffled give the same history', async () => {
    for (const s of story) await send('inorder', s);
    // Newest first but for one: every scan but the first replays the ones after it.
    for (const i of [6, 3, 5, 1, 4, 0, 2]) await send('shuffled', story[i]);
    const inOrder = await keptHistory('inorder');
    expect(await keptHistory('shuffled')).toEqual(inOrder);

    // Days with two scans, by hand. Day 3: the first fixes C and brings D back (a return: not new), the
    // second fixes E and brings B back (fixed on day 1: a regression). Day 6: the first fixes A and
    // brings C back, the second brings A and E back and leaves /old out (D no longer scanned).
    const figures = (day: number) => {
      const p = inOrder.points.find((x) => x.start === at(day).slice(0, 10))!;
      return [p.open_total, p.new, p.fixed, p.regressions];
    };
    expect([figures(0), figures(1), figures(3), figures(6), figures(9)]).toEqual([
      [4, 4, 0, 0],
      [3, 1, 1, 0],
      [3, 0, 2, 1],
      [4, 0, 1, 3],
      [1, 0, 4, 0],
    ]);
  });
});
