import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Assessment, VpatReport } from '../helpers/api-types.js';
import { useHarness } from '../helpers/harness.js';
import { axeViolations, describeInBrowser, launch } from './browser.js';
import { seedReport, type ReportSeed } from './report-seed.js';

// The report page behind its evidence, its publish form with "Publish as it is", and the Generate form, in
// Chromium: axe-core finds nothing in light and (for contrast) dark. With SCREENSHOTS=<dir> set, each state
// is also saved there as a PNG, for a person to look at.

describeInBrowser('the report lifecycle in Chromium', () => {
  let s: ReportSeed;
  let browser: Browser;
  let page: Page;
  afterAll(async () => {
    await browser?.close();
  });
  const h = useHarness();
  const violations: Record<string, string[]> = {};
  const check = async (state: string) => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const found = await axeViolations(page, scheme === 'dark');
      if (found.length) violations[`${state} (${scheme})`] = found;
      if (process.env.SCREENSHOTS) {
        await page.screenshot({
          path: path.join(process.env.SCREENSHOTS, `${state}-${scheme}.png`),
          fullPage: true,
        });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
  };

  beforeAll(async () => {
    s = await seedReport(h);
    const a = await h.request<Assessment>('POST', '/api/v1/assessments', {
      key: s.key,
      body: {
        siteId: 'docs-web',
        title: 'Docs audit',
        standard: { wcag: '2.2', level: 'AA' },
        sample: { pages: ['https://docs.example/'] },
      },
    });
    // Every row decided, then a result recorded after: the version is behind, and publishable as it is.
    const decided = await h.request<VpatReport>('POST', `/api/v1/vpat/${s.reportId}/review`, {
      key: s.key,
      body: {
        author: 'Grace Officer',
        decisions: s.left.map((criterion) => ({
          criterion,
          conformance: 'does-not-support',
          remarks: 'Not yet.',
        })),
      },
    });
    await h.request('PUT', `/api/v1/assessments/${a.body.id}/results/1.3.3`, {
      key: s.key,
      body: { page: null, outcome: 'passed', notes: 'No instruction relies on shape.', tester: 'Ann Tester' },
    });
    browser = await launch();
    page = await (await browser.newContext()).newPage();
    const at = `/reports/${decided.body.id}`;
    await page.goto(`${h.url}/sign-in?next=${encodeURIComponent(at)}`);
    await page.fill('#key', s.key);
    await page.press('#key', 'Enter');
    await page.waitForURL(`${h.url}${at}`);
  }, 120_000);

  test('behind its assessment: the notice, the next-version button and the publish form, without violations', async () => {
    expect(await page.locator('#behind').textContent()).toBe('Behind the evidence: 1 new result');
    expect(await page.locator('#publisher').inputValue()).toBe('');
    expect(await page.locator('#publish-behind').isChecked()).toBe(false);
    await check('report-behind');
    // Publishing without ticking "as it is" names the result it would leave out.
    await page.fill('#publisher', 'Grace Officer');
    await page.press('#publisher', 'Enter');
    await page.waitForLoadState();
    expect(await page.locator('.error-summary, [role="alert"]').first().textContent()).toContain(
      '1.3.3 on the whole sample: passed, recorded by Ann Tester',
    );
    await check('publish-refused');
    await page
      .locator('button', { hasText: 'Make the next version from the newest evidence' })
      .press('Enter');
    await page.waitForURL(/\?refreshed=1$/);
    expect(await page.locator('#behind').count()).toBe(0);
    await check('next-version');
  }, 180_000);

  test('the Generate form with vendor, contact and public address', async () => {
    await page.goto(`${h.url}/sites/docs-web#reports`);
    expect(await page.locator('#report-vendor').inputValue()).toBe('');
    await check('site-generate-form');
    expect(violations).toEqual({});
  }, 120_000);
});
