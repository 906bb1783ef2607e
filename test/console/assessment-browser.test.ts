import type { Browser, Page } from 'playwright-core';
import type { AssessmentDetail, VpatReport } from '../helpers/api-types.js';
import { useHarness } from '../helpers/harness.js';
import { axeViolations, describeInBrowser, launch, tabTo } from './browser.js';
import { seedConsole, type Seeded } from './seed.js';

describeInBrowser('the assessment workspace in Chromium', () => {
  let s: Seeded;
  let browser: Browser;
  let page: Page;
  afterAll(async () => {
    await browser?.close();
  });
  const h = useHarness();
  beforeAll(async () => {
    browser = await launch();
    page = await (await browser.newContext()).newPage();
    s = await seedConsole(h);
    await page.goto(`${h.url}/sign-in`);
    await tabTo(page, '#key');
    await page.keyboard.type(s.key);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${h.url}/`);
  });

  test('start an assessment from the site, record several results with the keyboard alone, save and go on', async () => {
    await page.goto(`${h.url}/sites/${s.siteId}`);
    await tabTo(page, '#assessment-random');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/assessments\/asm_/);
    const id = new URL(page.url()).pathname.split('/').pop() ?? '';
    expect(await page.locator('h2#criterion').textContent()).toMatch(/^1\.1\.1 Non-text Content/);
    // The whole sample and the first drawn page, in one submission.
    await tabTo(page, '#outcome-0');
    await page.keyboard.press('p'); // "Passed"
    await tabTo(page, '#outcome-1');
    await page.keyboard.press('f'); // "Failed"
    await tabTo(page, '#notes-1');
    await page.keyboard.type('The logo has no text alternative.');
    // The tester names themself: the field starts empty.
    await tabTo(page, '#tester');
    await page.keyboard.type('Ada Tester');
    await tabTo(page, 'button[name="next"][value="1"]');
    await page.keyboard.press('Enter');
    await page.waitForURL(/criterion=1\.2\.1/);
    expect(await page.locator('p.notice').textContent()).toMatch(/2 results saved/);
    expect(await page.locator('h2#criterion').textContent()).toMatch(/^1\.2\.1/);
    const d = await h.request<AssessmentDetail>('GET', `/api/v1/assessments/${id}`, { key: s.key });
    expect(d.body.results.map((r) => [r.criterion, r.page === null, r.outcome, r.notes])).toEqual([
      ['1.1.1', true, 'passed', ''],
      ['1.1.1', false, 'failed', 'The logo has no text alternative.'],
    ]);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${h.url}/assessments/${id}?criterion=1.1.1`);
      expect([scheme, await axeViolations(page, scheme === 'dark')]).toEqual([scheme, []]);
      await page.goto(`${h.url}/sites/${s.siteId}`);
      expect([scheme, 'site', await axeViolations(page, scheme === 'dark')]).toEqual([scheme, 'site', []]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }, 120_000);

  test('a result changed by someone else since the page was opened is not overwritten', async () => {
    const d = await h.request<{ data: Array<{ id: string }> }>(
      'GET',
      `/api/v1/assessments?siteId=${s.siteId}`,
      {
        key: s.key,
      },
    );
    const id = d.body.data[0].id;
    await page.goto(`${h.url}/assessments/${id}?criterion=1.1.1`);
    // Meanwhile another tester changes the whole-sample result.
    const other = await h.request('PUT', `/api/v1/assessments/${id}/results/1.1.1`, {
      key: s.key,
      body: { page: null, outcome: 'cantTell', notes: 'unsure', tester: 'Bob' },
    });
    expect(other.status).toBe(200);
    await page.selectOption('#outcome-0', 'inapplicable');
    await page.fill('#tester', 'Ada Tester');
    await page.click('button[name="next"][value="0"]');
    await page.waitForURL(/saved=0/);
    expect(await page.locator('p.notice').textContent()).toMatch(/someone changed them/);
    expect(await page.locator('#outcome-0').inputValue()).toBe('cantTell');
  });

  test('from a report: its heading names the product; the next report and an assessment start from buttons', async () => {
    await page.goto(`${h.url}/reports/${s.reportId}`);
    expect(await page.locator('h1').textContent()).toMatch(/^Shop 2026\.11: /);
    await tabTo(page, 'form[action$="/next"] button', 400);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname.startsWith('/reports/') && !u.pathname.endsWith(s.reportId));
    expect(await page.locator('h1').textContent()).toMatch(/^Shop 2026\.11: /);
    await page.click('form[action$="/assessments"] button');
    await page.waitForURL(/\/assessments\/asm_/);
    expect(await page.locator('h1').textContent()).toBe('Assessment for Shop 2026.11');
    expect(await axeViolations(page)).toEqual([]);
  });

  test('a report is generated from the site page, named for the product', async () => {
    await page.goto(`${h.url}/sites/${s.siteId}`);
    await tabTo(page, '#report-name', 400);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Shop');
    await page.keyboard.press('Tab');
    await page.keyboard.type('2026.12');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Acme');
    await page.keyboard.press('Tab');
    await page.keyboard.type('a11y@acme.example');
    // The public address is left to its default, the site's.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type('The Acme web shop: catalogue, cart and checkout.');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/reports\/vpt_/);
    expect(await page.locator('h1').textContent()).toMatch(/^Shop 2026\.12: /);
    const reportId = new URL(page.url()).pathname.split('/').pop()!;
    const made = await h.request<VpatReport>('GET', `/api/v1/vpat/${reportId}`, { key: s.key });
    expect(made.body.product).toMatchObject({ vendor: 'Acme', contact: { email: 'a11y@acme.example' } });
    expect(await axeViolations(page)).toEqual([]);
  });
});
