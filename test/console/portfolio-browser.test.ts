import type { Browser, Page } from 'playwright-core';
import { useHarness } from '../helpers/harness.js';
import { describeInBrowser, launch, violationsOnEveryScreen } from './browser.js';
import { seedHistory, type HistorySeed } from './history-seed.js';

// The organisation's page in Chromium, over the story of test/console/history-seed.ts: one site of org acme
// (tagged "shops") and a site of another org, which the page never shows.

describeInBrowser('the organisation page in Chromium', () => {
  let s: HistorySeed;
  let browser: Browser;
  let page: Page;
  afterAll(async () => {
    await browser?.close();
  });
  const h = useHarness();
  const text = async (selector: string) =>
    ((await page.locator(selector).first().textContent()) ?? '').trim().replace(/\s+/g, ' ');

  beforeAll(async () => {
    s = await seedHistory(h);
    const admin = await h.createKey({ org: 'acme', scopes: ['admin'] });
    const tagged = await h.request('PUT', `/api/v1/sites/${s.siteId}/tags`, {
      key: admin,
      body: { tags: ['shops'] },
    });
    expect(tagged.status).toBe(200);
    browser = await launch();
    page = await (await browser.newContext()).newPage();
    await page.goto(`${h.url}/sign-in`);
    await page.fill('#key', s.key);
    await page.press('#key', 'Enter');
    await page.waitForURL(`${h.url}/`);
  }, 120_000);

  test('the sites page links to it; its figures are the last 30 days of the story, the chart the site’s own', async () => {
    await page.locator('a', { hasText: 'All sites together' }).click();
    await page.waitForURL(`${h.url}/portfolio`);
    expect(await text('h1')).toBe('Organisation');
    // From day 60 of the story: open at the end of day 59 were A, D and E; at the end A, B, E, F and G,
    // A and E past their deadlines; B came back on day 60.
    expect(await text('main > p')).toBe(
      '1 site: 5 open issues (+2 in the last 30 days), 2 overdue, 1 regression. Got worse: shop-web.',
    );
    const chartSentence = await text('figure .trend-sentence');
    // With one site, the org's chart is the site's history over the same range and interval.
    const site = await browser.newPage();
    await site.context().addCookies(await page.context().cookies());
    await site.goto(`${h.url}/sites/${s.siteId}/history?interval=day&days=30`);
    expect(((await site.locator('figure .trend-sentence').textContent()) ?? '').trim()).toBe(chartSentence);
    await site.close();
    expect(chartSentence).toMatch(/^Open issues rose from 4 to 5 over the last 30 days; 1 regression, /);
    expect(await page.locator('body').textContent()).not.toContain(s.otherSiteId);
    expect(await violationsOnEveryScreen(page, 'the organisation page')).toEqual({});
  });

  test('the fixes that clear the most link to the site; the groups, the sites and the Section 508 figures are tables', async () => {
    await page.goto(`${h.url}/portfolio`);
    const fixes = page.locator('ol.fixes > li');
    expect(await fixes.count()).toBe(5);
    expect(await fixes.first().locator('a').first().getAttribute('href')).toBe(`/sites/${s.siteId}/history`);
    const captions = await page.locator('table caption').allTextContents();
    expect(captions.map((c) => c.trim().replace(/ \d{4}-\d{2}-\d{2}.*$/, ''))).toEqual([
      expect.stringMatching(/^Open issues of all sites of acme by impact, by day,/),
      'Sites,',
      'Groups,',
      `Section 508 figures of ${new Date().getUTCFullYear()}`,
    ]);
    const groupCells = await page
      .locator('table:has(caption:text-matches("^\\\\s*Groups")) tbody tr')
      .first()
      .locator('th, td')
      .allTextContents();
    expect(groupCells.map((c) => c.trim())).toEqual(['shops', '1', '5', '+2', '1', '2', 'shop-web']);
  });

  test('a group, a range and an interval are chosen with the form; the page keeps them in its address', async () => {
    await page.goto(`${h.url}/portfolio`);
    await page.selectOption('#p-group', 'shops');
    await page.selectOption('#p-days', '90');
    await page.selectOption('#p-interval', 'week');
    await page.locator('button', { hasText: 'Show' }).click();
    await page.waitForURL(/group=shops/);
    expect(new URL(page.url()).searchParams.get('days')).toBe('90');
    expect(await text('h1')).toBe('Group shops');
    // Over 90 days nothing was open before the story began.
    expect(await text('main > p')).toBe(
      '1 site: 5 open issues (+5 in the last 90 days), 2 overdue, 1 regression. Got worse: shop-web.',
    );
    expect(await text('figure figcaption')).toMatch(/^Open issues of group shops by impact, by week, /);
    expect(await violationsOnEveryScreen(page, 'a group over 90 days by week')).toEqual({});
  });
});
