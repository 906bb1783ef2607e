import { closeBrowser, runAxe, type AxeResults } from '../../helpers/axe-browser.js';
import type { Assessment, AssessmentCriterion } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { chromium, describeWith } from '../../helpers/requirements.js';

// Text over a background image: axe-core cannot compute the contrast and says "needs review".
const PAGE = `<!doctype html><html lang="en"><head><title>Offers</title></head><body><main>
<h1>Offers</h1>
<p style="background-image: url(data:image/png;base64,iVBORw0KGgo=); color: #777">Half price this week</p>
<p style="color:#000; background:#fff">Plain text</p>
</main></body></html>`;

describeWith(chromium, 'axe-core needs-review results become review items of an assessment', () => {
  afterAll(async () => {
    await closeBrowser();
  });

  describe.each(dbKinds)('%s', (db) => {
    const h = useHarness({ db, org: 'review' });

    test('each incomplete node of a sampled page is a review item of the criteria its rule tags', async () => {
      const url = 'http://fixture.test/offers';
      const axe: AxeResults = await runAxe(PAGE, { url });
      // Ground truth from axe itself: the incomplete nodes of rules tagged with 1.4.3.
      const expected = axe.incomplete
        .filter((r) => r.tags.includes('wcag143'))
        .flatMap((r) => r.nodes.map((n) => ({ rule: r.id, selector: String(n.target[0]) })));
      expect(expected.length).toBeGreaterThanOrEqual(1);
      const scan = await h.request('POST', '/api/v1/scans', {
        key: h.key,
        body: { url, siteId: 'offers', sha: 'c'.repeat(40), branch: 'main', pages: [{ url, axe }] },
      });
      expect(scan.status).toBe(201);
      const a = await h.request<Assessment>('POST', '/api/v1/assessments', {
        key: h.key,
        body: {
          siteId: 'offers',
          title: 'Offers',
          standard: { wcag: '2.2', level: 'AA' },
          sample: { pages: [url] },
        },
      });
      const ws = await h.request<AssessmentCriterion>(
        'GET',
        `/api/v1/assessments/${a.body.id}/criteria/1.4.3`,
        {
          key: h.key,
        },
      );
      expect(ws.body.review_items.map((r) => ({ rule: r.rule, selector: r.selector }))).toEqual(expected);
      expect(ws.body.review_items.every((r) => r.page === url)).toBe(true);
    });
  });
});
