import type { Browser, Page } from 'playwright-core';
import type { CreatedScan } from '../helpers/api-types.js';
import { useHarness } from '../helpers/harness.js';
import { axeViolations, describeInBrowser, launch } from './browser.js';

// A scan whose pages were scanned at viewports, as the console's scan page shows it, in Chromium.

describeInBrowser('the scan page of a scan at viewports', () => {
  let browser: Browser;
  let page: Page;
  let scanId: string;
  afterAll(async () => {
    await browser?.close();
  });
  const h = useHarness();

  beforeAll(async () => {
    const key = await h.createKey({ org: 'acme', scopes: ['ingest', 'read'] });
    const issue = (rule: string, selector: string) => ({
      rule,
      impact: 'critical',
      selector,
      message: `${rule} at ${selector}`,
      html: `<button class="${selector.slice(1)}"></button>`,
    });
    const created = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key,
      body: {
        siteId: 'shop-web',
        url: 'https://shop.example/',
        pages: [
          {
            url: 'https://shop.example/',
            viewport: '390x844',
            title: 'Home',
            issues: [issue('button-name', '.menu')],
          },
          { url: 'https://shop.example/', viewport: '1280x720', title: 'Home', issues: [] },
          {
            url: 'https://shop.example/cart',
            viewport: 'iPhone 13',
            title: 'Cart',
            issues: [issue('button-name', '.pay')],
          },
        ],
      },
    });
    if (created.status !== 201) throw new Error(`scan: ${created.status} ${created.text}`);
    scanId = created.body.id;
    browser = await launch();
    page = await (await browser.newContext()).newPage();
    await page.goto(`${h.url}/sign-in?next=${encodeURIComponent(`/scans/${scanId}`)}`);
    await page.fill('#key', key);
    await page.press('#key', 'Enter');
    await page.waitForURL(`${h.url}/scans/${scanId}`);
  });

  test('each page row names its viewport, and so do the page filter and each issue; no axe-core violation', async () => {
    const rows = await page
      .locator('table:has(caption:text("Pages and their issues")) tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) =>
          Array.from(
            (tr as unknown as { children: ArrayLike<{ textContent: string | null }> }).children,
            (c) => (c.textContent ?? '').trim(),
          ),
        ),
      );
    expect(rows).toEqual([
      ['1', 'https://shop.example/', '390x844', 'Home', '—', '1'],
      ['3', 'https://shop.example/cart', 'iPhone 13', 'Cart', '—', '1'],
      ['2', 'https://shop.example/', '1280x720', 'Home', '—', '0'],
    ]);
    expect(await page.locator('#f-page option').allTextContents()).toEqual([
      'All pages',
      '1. https://shop.example/ (390x844)',
      '2. https://shop.example/ (1280x720)',
      '3. https://shop.example/cart (iPhone 13)',
    ]);
    const pagesOfIssues = await page.locator('li.issue dt:text-is("Page") + dd').allTextContents();
    expect(pagesOfIssues.map((t) => t.trim())).toEqual([
      'https://shop.example/ (390x844)',
      'https://shop.example/cart (iPhone 13)',
    ]);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect([scheme, await axeViolations(page, scheme === 'dark')]).toEqual([scheme, []]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    if (process.env.SCREENSHOT_DIR) {
      await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/scan-viewports.png`, fullPage: true });
      await page.setViewportSize({ width: 320, height: 900 });
      await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/scan-viewports-320.png`, fullPage: true });
    }
  }, 120_000);
});
