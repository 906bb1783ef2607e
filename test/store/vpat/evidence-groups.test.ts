import { evidenceGroups, pageRanges } from '../../../api/store/vpat/evidence-groups.js';
import { evidencePages } from '../../../api/store/vpat/evidence.js';
import type { EvidenceGroup } from '../../../api/domain/vpat/evidence-tally.js';
import { dbKinds, startHarness, type Harness } from '../../helpers/harness.js';

/**
 * The VPAT's issue groups, counted a page range per query: whatever the ranges, the same groups, counts,
 * waived counts and stored help URLs as the scan's issues say (counted by hand below), on both databases.
 */

test('page ranges cover every page once, the first open below and the last open above', () => {
  expect(pageRanges([], 10, 100)).toEqual([{}]);
  expect(pageRanges([0, 1, 2, 3, 4], 10, 100)).toEqual([{ from: undefined, to: undefined }]);
  // 2 issues a page, 4 per range: 2 pages a range.
  expect(pageRanges([0, 1, 2, 3, 4], 10, 4)).toEqual([
    { from: undefined, to: 2 },
    { from: 2, to: 4 },
    { from: 4, to: undefined },
  ]);
  // Many issues a page: one page a range, never less.
  expect(pageRanges([0, 1, 2], 300, 1)).toEqual([
    { from: undefined, to: 1 },
    { from: 1, to: 2 },
    { from: 2, to: undefined },
  ]);
});

describe.each(dbKinds)('VPAT evidence groups (%s)', (db) => {
  let h: Harness;
  let key: string;
  let scanId: string;
  const PAGES = 9;
  // Page p has: image-alt on img.logo (every page) and on img.hero (even pages), one incomplete
  // color-contrast, and a rule axe-core does not know with its own help URL (odd pages, a later URL on page 7).
  const issuesOf = (p: number) => [
    { rule: 'image-alt', impact: 'critical', wcag: ['1.1.1'], selector: 'img.logo' },
    ...(p % 2 === 0
      ? [{ rule: 'image-alt', impact: 'critical', wcag: ['1.1.1'], selector: 'img.hero' }]
      : []),
    { rule: 'color-contrast', kind: 'incomplete', impact: 'serious', wcag: ['1.4.3'], selector: 'p' },
    ...(p % 2 === 1
      ? [
          {
            rule: 'house-rule',
            impact: 'minor',
            selector: 'div',
            help_url: `https://help.example/${p === 7 ? 'v2' : 'v1'}`,
          },
        ]
      : []),
  ];

  beforeAll(async () => {
    h = await startHarness({ db });
    key = await h.createKey({ org: 'acme' });
    const res = await h.request<{ id: string }>('POST', '/api/v1/scans', {
      key,
      body: {
        siteId: 'shop',
        url: 'https://shop.example/',
        pages: Array.from({ length: PAGES }, (_, p) => ({
          url: `https://shop.example/p${p}`,
          issues: issuesOf(p),
        })),
      },
    });
    expect(res.status).toBe(201);
    scanId = res.body.id;
    const expires_at = new Date(Date.now() + 7 * 86_400_000).toISOString();
    for (const waiver of [
      { rule: 'image-alt', url_pattern: '/p1*' }, // page 1 only: its one image-alt
      { rule: 'image-alt', selector: 'img.hero' }, // every hero: pages 0, 2, 4, 6, 8
      { rule: 'house-rule', url_pattern: '/p3' }, // page 3's house-rule
    ]) {
      const w = await h.request('POST', '/api/v1/waivers', {
        key,
        body: { siteId: 'shop', reason: 'test', expires_at, ...waiver },
      });
      expect(w.status).toBe(201);
    }
  });
  afterAll(() => h.close());

  async function read(perRange: number) {
    const pages = await evidencePages(h.db, scanId);
    const help = new Map<string, string>();
    const batches: EvidenceGroup[][] = [];
    const scan = { id: scanId, org: 'acme', siteId: 'shop', issueCount: 0 };
    scan.issueCount = Array.from({ length: PAGES }, (_, p) => issuesOf(p).length).reduce((a, b) => a + b);
    const known = new Set(['image-alt', 'color-contrast']);
    for await (const b of evidenceGroups(
      h.db,
      scan,
      pages,
      new Date().toISOString(),
      known,
      help,
      perRange,
    )) {
      batches.push(b);
    }
    const all = batches.flat().map((g) => `${g.page} ${g.rule} ${g.kind} ${g.count} waived ${g.waived}`);
    return { batches: batches.length, groups: all.sort(), help };
  }

  test('one range or many: the same groups, waived counts and help URLs', async () => {
    const expected: string[] = [];
    for (let p = 0; p < PAGES; p++) {
      const imageAlt = p % 2 === 0 ? 2 : 1;
      const imageWaived = p === 1 ? 1 : p % 2 === 0 ? 1 : 0;
      expected.push(`${p} image-alt violation ${imageAlt} waived ${imageWaived}`);
      expected.push(`${p} color-contrast incomplete 1 waived 0`);
      if (p % 2 === 1) expected.push(`${p} house-rule violation 1 waived ${p === 3 ? 1 : 0}`);
    }
    expected.sort();
    const whole = await read(1_000_000);
    expect(whole.batches).toBe(1);
    expect(whole.groups).toEqual(expected);
    expect([...whole.help]).toEqual([['house-rule', 'https://help.example/v2']]);
    // About 3 issues a page: one or two pages a range.
    const ranged = await read(4);
    expect(ranged.batches).toBeGreaterThanOrEqual(5);
    expect(ranged.groups).toEqual(expected);
    expect([...ranged.help]).toEqual([['house-rule', 'https://help.example/v2']]);
  });
});
