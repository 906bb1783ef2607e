import { chromium as playwright, type Browser } from 'playwright-core';
import { closeBrowser, runAxe } from '../helpers/axe-browser.js';
import { CHROMIUM_PATH, chromium, describeWith } from '../helpers/requirements.js';
import {
  commentPage,
  openCommentPage,
  sampleResult,
  THUMBNAIL_URL,
} from '../fixtures/github/comment-page.js';
import { renderPullRequestComment } from '../../core/github/pr-comment.js';
import { gateReportSummary } from '../../core/gate/report.js';
import type { GateResult } from '../../core/gate/deploy-event.js';

/** The sample as a partial scan with no scan of the base branch: both lines the comment may add. */
function partialResult(): GateResult {
  const pages = ['https://preview-42.shop.example/cart', 'https://preview-42.shop.example/'];
  return {
    ...sampleResult(),
    baseline: {
      scan_id: null,
      sha: null,
      strategy: 'none',
      reason: 'No scan of main yet: every issue counts as new. Scan main first, or commit a baseline file.',
    },
    coverage: {
      scope: 'partial',
      pages_compared: 2,
      pages_total: 2,
      pages,
      message: 'This scan covers only the 2 pages listed, and there is no baseline to compare them with.',
    },
  };
}

/**
 * The pull request comment as GitHub shows it: its markdown rendered (GitHub-flavoured) in Chromium. It
 * must be readable by everyone it is for, so axe-core finds nothing on it; `take-comment-screenshot.ts`
 * takes the picture in docs/github-app.md from the same page.
 */
describeWith(chromium, 'pull request comment in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await playwright.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--headless', '--no-sandbox'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await closeBrowser();
  });

  test('zero axe-core violations on the rendered comment', async () => {
    const results = await runAxe(commentPage());
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
    expect(results.passes.length).toBeGreaterThan(10);
  });

  test("a partial scan's comment and check-run summary (the pages compared, no baseline yet): zero violations", async () => {
    const result = partialResult();
    const comment = renderPullRequestComment({ result, deployUrl: 'https://a11y.example.com/deploys/d' });
    const summary = gateReportSummary(result, 'https://a11y.example.com/deploys/d');
    for (const markdown of [comment, summary]) {
      const results = await runAxe(commentPage(markdown));
      expect(results.violations.map((v) => v.id)).toEqual([]);
    }
    const page = await openCommentPage(browser, comment);
    try {
      const text = await page.locator('.markdown-body').innerText();
      expect(text).toContain('No scan of main yet: every issue counts as new.');
      expect(text).toContain('This scan covers only the 2 pages listed');
      if (process.env.A11Y_SHOT_DIR) {
        await page.locator('main').screenshot({ path: `${process.env.A11Y_SHOT_DIR}/partial-comment.png` });
        const sum = await openCommentPage(browser, summary);
        await sum.locator('main').screenshot({ path: `${process.env.A11Y_SHOT_DIR}/partial-summary.png` });
        await sum.close();
      }
    } finally {
      await page.close();
    }
  }, 120_000);

  test('the thumbnail shows the element, the source lines and the console are links', async () => {
    const page = await openCommentPage(browser);
    try {
      const img = page.locator(`img[src="${THUMBNAIL_URL}"]`);
      await expect(img.getAttribute('alt')).resolves.toBe('Element of color-contrast: .btn-secondary');
      const width = await img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth);
      expect(width).toBeGreaterThan(50);
      const links = await page
        .locator('a')
        .evaluateAll((as: Array<{ getAttribute(name: string): string | null }>) =>
          as.map((a) => a.getAttribute('href')),
        );
      expect(links).toContain(
        'https://github.com/acme/shop-web/blob/9fceb02d0ae598e95dc970b74767f19372d61af8/src/components/CartSummary.vue#L38',
      );
      expect(links).toContain('https://a11y.example.com/deploys/dep_4mVb8kQz2nXr7TcLp1Ws');
      const shot = await page.locator('main').screenshot();
      expect(shot.subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await page.close();
    }
  });
});
