import type { Browser, Page } from 'playwright-core';
import { useHarness } from '../helpers/harness.js';
import { describeInBrowser, launch, tabTo, violationsOnEveryScreen, type PageGlobals } from './browser.js';
import { dayName, seedHistory, type HistorySeed } from './history-seed.js';

// The site history page in Chromium: the story of test/console/history-seed.ts, every figure by hand.

const DAY_MS = 86_400_000;

/** The cells of each body row of the table with this caption, as text. */
async function tableRows(page: Page, caption: string): Promise<string[][]> {
  return page
    .locator(`table:has(caption:text-is("${caption}")) tbody tr`)
    .evaluateAll((trs) =>
      trs.map((tr) =>
        Array.from((tr as unknown as { children: ArrayLike<{ textContent: string | null }> }).children, (c) =>
          (c.textContent ?? '').trim().replace(/\s+/g, ' '),
        ),
      ),
    );
}

describeInBrowser('the site history page in Chromium', () => {
  let s: HistorySeed;
  let browser: Browser;
  let page: Page;
  afterAll(async () => {
    await browser?.close();
  });
  const h = useHarness();
  const check = async (state: string) => expect(await violationsOnEveryScreen(page, state)).toEqual({});
  const caption = (interval: string, days: number) => {
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * DAY_MS).toISOString().slice(0, 10);
    return `Open issues of main by impact, by ${interval}, ${from} to ${to}`;
  };

  beforeAll(async () => {
    s = await seedHistory(h);
    browser = await launch();
    page = await (await browser.newContext()).newPage();
    await page.goto(`${h.url}/sign-in?next=${encodeURIComponent(`/sites/${s.siteId}`)}`);
    await page.fill('#key', s.key);
    await page.press('#key', 'Enter');
    await page.waitForURL(`${h.url}/sites/${s.siteId}`);
  }, 120_000);

  test('the site page links to it; the chart says the trend in words and the table has its figures', async () => {
    await page.locator('a', { hasText: 'History of main' }).click();
    await page.waitForURL(`${h.url}/sites/${s.siteId}/history`);
    expect(await page.locator('h1').textContent()).toBe('History of shop-web');
    const sentence =
      'Open issues rose from 4 to 5 over the last 90 days; 1 regression, 7 new, 2 fixed. ' +
      'At the end: 2 critical, 2 serious, 1 moderate, 0 minor; 2 overdue.';
    expect(await page.locator('figure .trend-sentence').textContent()).toBe(sentence);
    expect(await page.locator('figure svg desc').textContent()).toBe(sentence);
    expect(await page.locator('figure figcaption').textContent()).toBe(caption('day', 90));
    const labels = await page.locator('figure svg text.end-label').allTextContents();
    expect(labels.map((t) => t.trim().replace(/\s+/g, ' '))).toEqual([
      'total 5',
      'critical 2',
      'serious 2',
      'moderate 1',
      'minor 0',
    ]);
    const rows = await tableRows(page, caption('day', 90));
    expect(rows).toHaveLength(90);
    const row = (d: number) => rows.find((r) => r[0] === dayName(d));
    // Interval, critical, serious, moderate, minor, open, new, fixed, regressions, overdue.
    expect(row(0)).toEqual([dayName(0), '1', '1', '1', '1', '4', '4', '0', '0', '0']);
    expect(row(20)).toEqual([dayName(20), '1', '2', '1', '1', '5', '1', '0', '0', '0']);
    expect(row(30)).toEqual([dayName(30), '1', '1', '1', '1', '4', '0', '1', '0', '1']);
    expect(row(45)).toEqual([dayName(45), '1', '1', '1', '0', '3', '0', '1', '0', '1']);
    expect(row(60)).toEqual([dayName(60), '1', '2', '1', '0', '4', '0', '0', '1', '1']);
    // /about left the scans: D is no longer open, and not fixed.
    expect(row(70)).toEqual([dayName(70), '1', '2', '0', '0', '3', '0', '0', '0', '1']);
    expect(row(89)).toEqual([dayName(89), '2', '2', '1', '0', '5', '0', '0', '0', '2']);
    await check('history, 90 days by day');
  }, 180_000);

  test('open issues with first seen, age, due date and overdue; each rule opens the scan that shows it', async () => {
    await page.goto(`${h.url}/sites/${s.siteId}/history`);
    const rows = await tableRows(page, 'Open issues');
    const byRule = new Map(rows.map((r) => [r[0], r]));
    expect([...byRule.keys()].sort()).toEqual([
      'button-name',
      'color-contrast',
      'heading-order',
      'image-alt',
      'label',
    ]);
    const age = (d: number) =>
      String(Math.floor((Date.now() - Date.parse(`${dayName(d)}T01:00:00Z`)) / DAY_MS));
    // Rule, impact, page, first seen, counted from, age, due, overdue (critical 30 days, serious 60).
    expect(byRule.get('image-alt')).toEqual([
      'image-alt',
      'critical',
      '/',
      dayName(0),
      dayName(0),
      age(0),
      dayName(30),
      'overdue',
    ]);
    // A regression counts from its return.
    expect(byRule.get('color-contrast')).toEqual([
      'color-contrast',
      'serious',
      '/cart',
      dayName(0),
      dayName(60),
      age(60),
      dayName(120),
      'not yet',
    ]);
    expect(byRule.get('label')?.slice(6)).toEqual([dayName(80), 'overdue']);
    expect(byRule.get('heading-order')?.slice(6)).toEqual([dayName(175), 'not yet']);
    await page.locator('table a', { hasText: 'image-alt' }).click();
    await page.waitForURL(`${h.url}/scans/${s.scanOfDay.get(85)}?rule=image-alt&page=1#issues`);
    expect(await page.locator('li.issue dt:text-is("Element") + dd').allTextContents()).toEqual(['#logo']);
  }, 120_000);

  test('with the keyboard: fixed and no longer scanned issues, then weeks over a year', async () => {
    await page.goto(`${h.url}/sites/${s.siteId}/history`);
    await tabTo(page, '#h-status');
    await page.keyboard.press('ArrowDown');
    await tabTo(page, 'form[action="#issues"] button');
    await page.keyboard.press('Enter');
    await page.waitForURL(/status=fixed/);
    const fixed = await tableRows(page, 'Fixed issues');
    // Rule, impact, page, first seen, fixed, regressions.
    expect(fixed).toEqual([['link-name', 'minor', '/', dayName(0), dayName(45), '0']]);
    expect(await page.locator('table a', { hasText: 'link-name' }).getAttribute('href')).toBe(
      `/scans/${s.scanOfDay.get(30)}?rule=link-name&page=1#issues`,
    );
    await check('fixed issues');

    await tabTo(page, '#h-status');
    await page.keyboard.press('ArrowDown');
    await tabTo(page, 'form[action="#issues"] button');
    await page.keyboard.press('Enter');
    await page.waitForURL(/status=unscanned/);
    expect(await tableRows(page, 'No longer scanned issues')).toEqual([
      ['region', 'moderate', '/about', dayName(0), '0'],
    ]);
    expect(await page.locator('table a', { hasText: 'region' }).getAttribute('href')).toBe(
      `/scans/${s.scanOfDay.get(60)}?rule=region&page=3#issues`,
    );

    // From the top of the page, as a keyboard user arriving there.
    await page.goto(page.url().replace(/#.*$/, ''));

    await tabTo(page, '#h-interval');
    await page.keyboard.press('ArrowDown');
    await tabTo(page, '#h-days');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await tabTo(page, 'form[action="#chart"] button');
    await page.keyboard.press('Enter');
    await page.waitForURL(/interval=week&days=365&status=unscanned#chart$/);
    // One row per week (Monday to Sunday), the first and last clipped to the range.
    const from = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) - 364 * DAY_MS;
    let weeks = 1;
    for (let d = 1; d < 365; d++) if (new Date(from + d * DAY_MS).getUTCDay() === 1) weeks++;
    expect(await tableRows(page, caption('week', 365))).toHaveLength(weeks);
    expect(await page.locator('figure .trend-sentence').textContent()).toMatch(
      /^Open issues rose from 0 to 5 over the last 365 days; 1 regression, 7 new, 2 fixed\./,
    );
    await check('a year by week');
    if (process.env.SCREENSHOT_DIR) {
      for (const [name, width, scheme] of [
        ['desktop-light', 1280, 'light'],
        ['320px-dark', 320, 'dark'],
      ] as const) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`${h.url}/sites/${s.siteId}/history`);
        const full = await page.evaluate(
          () => (globalThis as unknown as PageGlobals).document.documentElement.scrollHeight,
        );
        await page.screenshot({
          path: `${process.env.SCREENSHOT_DIR}/history-${name}.png`,
          fullPage: true,
          clip: { x: 0, y: 0, width, height: Math.min(full, 2400) },
        });
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.emulateMedia({ colorScheme: 'light' });
    }
  }, 240_000);

  test('another org’s site and a missing one are the same 404 page', async () => {
    for (const site of [s.otherSiteId, 'no-such-site']) {
      const res = await page.goto(`${h.url}/sites/${site}/history`);
      expect(res?.status()).toBe(404);
    }
  }, 120_000);
});
