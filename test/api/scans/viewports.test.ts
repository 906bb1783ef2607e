import type {
  CreatedScan,
  DeployEvent,
  Problem,
  ScanDetail,
  StoredScreenshots,
} from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { elementPng } from '../../helpers/element-png.js';
import { buildCheckRun } from '../../../app/check-run-payload.js';
import { renderPullRequestComment } from '../../../core/github/pr-comment.js';

// One URL scanned at two viewports is two pages of one scan: stored with their viewports, fingerprinted
// apart, and each judged against the baseline's page of the same URL and viewport.

const menu = {
  rule: 'button-name',
  impact: 'critical',
  selector: 'button.menu',
  html: '<button class="menu"></button>',
};
const hero = {
  rule: 'image-alt',
  impact: 'critical',
  selector: 'img.hero',
  html: '<img class="hero" src="/hero.png">',
};

describe.each(dbKinds)('pages at viewports (%s)', (db) => {
  const h = useHarness({ db, org: 'vp' });

  const submit = (sha: string, branch: string, pages: unknown[]) =>
    h.request<CreatedScan & Problem>('POST', '/api/v1/scans', {
      key: h.key,
      body: { siteId: 'vp-site', url: 'https://shop.example/', sha, branch, pages },
    });
  const read = async (id: string) =>
    (await h.request<ScanDetail>('GET', `/api/v1/scans/${id}`, { key: h.key })).body;

  test('two viewports of one URL are two pages with their viewports; the gate pairs each with its own', async () => {
    // The base branch: the menu button has no name on the narrow screen (the only one that shows it).
    const base = await submit('1'.repeat(40), 'main', [
      { url: '/shop', viewport: '390x844', title: 'Shop', issues: [menu, hero] },
      { url: '/shop', viewport: '1280x720', title: 'Shop', issues: [hero] },
    ]);
    expect(base.status).toBe(201);
    const stored = await read(base.body.id);
    expect(stored.pages.map((p) => [p.index, p.url, p.viewport, p.issue_count])).toEqual([
      [0, '/shop', '390x844', 2],
      [1, '/shop', '1280x720', 1],
    ]);
    // The same image at two widths: two issues, two fingerprints.
    const heroes = stored.issues.filter((i) => i.rule === 'image-alt');
    expect(heroes.map((i) => i.page_index)).toEqual([0, 1]);
    expect(heroes[0].fingerprint).not.toBe(heroes[1].fingerprint);

    // The pull request: the narrow menu is fixed, but the wide layout now shows the same unnamed button, and
    // the wide image's selector changed (paired by similarity within its own page and viewport).
    const head = await submit('2'.repeat(40), 'feature', [
      { url: '/shop', viewport: '390x844', issues: [hero] },
      {
        url: '/shop',
        viewport: '1280x720',
        issues: [menu, { ...hero, selector: 'main > img:nth-child(2)' }],
      },
    ]);
    expect(head.status).toBe(201);
    const gate = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      body: { siteId: 'vp-site', sha: '2'.repeat(40) },
    });
    expect(gate.status).toBe(201);
    expect(gate.body.counts).toMatchObject({ new: 1, existing: 2, fixed: 1 });
    expect(gate.body.passed).toBe(false);
    const wideMenu = (await read(head.body.id)).issues.find((i) => i.rule === 'button-name')!;
    expect(gate.body.new_issues.map((i) => [i.rule, i.fingerprint])).toEqual([
      ['button-name', wideMenu.fingerprint],
    ]);
    expect(gate.body.similar_issues.map((i) => [i.selector, i.baseline_issue?.selector])).toEqual([
      ['main > img:nth-child(2)', 'img.hero'],
    ]);
    // Each listed issue names the viewport its page was scanned at, in the trigger's answer and in the event
    // read again, and so in everything rendered from it: the check run's text and annotation, the comment.
    const again = await h.request<DeployEvent>('GET', `/api/v1/deploy/${gate.body.id}`, { key: h.key });
    for (const event of [gate.body, again.body]) {
      expect(event.new_issues.map((i) => [i.rule, i.viewport])).toEqual([['button-name', '1280x720']]);
      expect(event.similar_issues.map((i) => i.viewport)).toEqual(['1280x720']);
    }
    const located = {
      ...again.body,
      new_issues: again.body.new_issues.map((i) => ({
        ...i,
        source: { path: 'shop.html', line: 3, column: null, method: null },
      })),
    };
    const checkRun = buildCheckRun(located, { detailsUrl: 'https://a11y.example/deploys/1' });
    expect(checkRun.output.text).toContain('· page `/shop` at 1280x720');
    expect(checkRun.annotations[0].raw_details).toContain('Page: /shop (1280x720)');
    expect(renderPullRequestComment({ result: again.body })).toContain('· page `/shop` at 1280x720');

    // The same URL without a viewport is another page again: nothing of it pairs with the viewports' pages.
    await submit('3'.repeat(40), 'plain', [{ url: '/shop', issues: [menu, hero] }]);
    const plain = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      body: { siteId: 'vp-site', sha: '3'.repeat(40) },
    });
    expect(plain.body.counts).toMatchObject({ new: 2, existing: 0, fixed: 3 });
    // A page scanned at no named viewport lists its issues as they always were: no viewport field.
    expect(plain.body.new_issues.map((i) => 'viewport' in i)).toEqual([false, false]);
    expect(renderPullRequestComment({ result: plain.body })).not.toMatch(/`\/shop` at /);
  });

  test("a picture names its page's viewport and is kept with that page's violation", async () => {
    const created = await submit('4'.repeat(40), 'pics', [
      { url: '/shop', viewport: '390x844', issues: [hero] },
      { url: '/shop', viewport: '1280x720', issues: [hero] },
    ]);
    const png = elementPng([200, 0, 100], 40, 20).toString('base64');
    const sent = await h.request<StoredScreenshots>('POST', `/api/v1/scans/${created.body.id}/screenshots`, {
      key: h.key,
      body: {
        images: [{ page_url: '/shop', viewport: '1280x720', rule: 'image-alt', selector: 'img.hero', png }],
      },
    });
    expect(sent.status).toBe(201);
    const wide = (await read(created.body.id)).issues[1];
    expect(sent.body.images).toEqual([
      expect.objectContaining({ page_index: 1, fingerprint: wide.fingerprint, created: true }),
    ]);
    // No page of this URL without a viewport: the picture names no violation.
    const none = await h.request<Problem>('POST', `/api/v1/scans/${created.body.id}/screenshots`, {
      key: h.key,
      body: { images: [{ page_url: '/shop', rule: 'image-alt', selector: 'img.hero', png }] },
    });
    expect(none.status).toBe(422);
  });

  test('a viewport that is not one line of text is refused with its pointer, and nothing is stored', async () => {
    const before = Number((await h.db('scan_pages').count({ n: '*' }))[0].n);
    for (const viewport of [' 390x844', 'iPhone\n13', '', 'x'.repeat(101), 390]) {
      const res = await submit('5'.repeat(40), 'bad', [
        { url: '/', issues: [] },
        { url: '/shop', viewport, issues: [hero] },
      ]);
      expect([viewport, res.status]).toEqual([viewport, 422]);
      expect(res.body.errors?.map((e) => e.pointer)).toEqual(['#/pages/1/viewport']);
    }
    expect(Number((await h.db('scan_pages').count({ n: '*' }))[0].n)).toBe(before);
  });
});
