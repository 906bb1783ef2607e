import type { Browser, Page } from 'playwright-core';
import type { VpatReport } from '../helpers/api-types.js';
import { useHarness } from '../helpers/harness.js';
import {
  axeViolations,
  describeInBrowser,
  launch,
  tabTo,
  type PageElement,
  type PageGlobals,
} from './browser.js';
import { seedReport, type ReportSeed } from './report-seed.js';

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = (globalThis as unknown as PageGlobals).document.activeElement;
    return { name: el?.name as string, value: el?.value as string };
  });

describeInBrowser('the report page in Chromium', () => {
  let s: ReportSeed;
  let browser: Browser;
  let page: Page;
  // Declared before the harness, so the browser closes before the server, as it always has.
  afterAll(async () => {
    await browser?.close();
  });
  const h = useHarness();
  const violations: Record<string, string[]> = {};
  /** Runs axe-core in light, and for contrast in dark, and keeps what it finds under `state`. */
  const check = async (state: string) => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const found = await axeViolations(page, scheme === 'dark');
      if (found.length) violations[`${state} (${scheme})`] = found;
    }
    await page.emulateMedia({ colorScheme: 'light' });
  };

  beforeAll(async () => {
    s = await seedReport(h);
    browser = await launch();
    page = await (await browser.newContext({ acceptDownloads: true })).newPage();
    await page.goto(`${h.url}/sign-in?next=${encodeURIComponent(`/reports/${s.reportId}`)}`);
    await page.fill('#key', s.key);
    await page.press('#key', 'Enter');
    await page.waitForURL(`${h.url}/reports/${s.reportId}`);
  });

  test('the queue lists the rows waiting for a person, with their evidence', async () => {
    expect(await page.locator('#queue').textContent()).toBe(`Waiting for a person (${s.left.length})`);
    const rows = await page.locator('.review-row h3').allTextContents();
    expect(rows.map((t) => t.split(' ')[0]).sort()).toEqual([...s.left].sort());
    const confirm = page
      .locator('.review-row')
      .filter({ hasText: s.confirmable })
      .locator('input[value="confirm"]');
    expect(await confirm.count()).toBe(1);
    expect(await page.locator('input[value="confirm"]').count()).toBe(1);
    // Its rule had nothing to test on any page: the row shows the suggestion, and no other row does.
    const suggested = page.locator('.review-row').filter({ hasText: 'Suggested: Not Applicable.' });
    expect(await suggested.locator('h3').allTextContents()).toEqual([
      expect.stringMatching(new RegExp(`^${s.confirmable.replace(/\./g, '\\.')} `)),
    ]);
    expect(await suggested.textContent()).toContain(
      'The axe-core rule that tests this criterion (video-caption) found nothing to test on any of the 2 scanned pages.',
    );
    await check('queue');
  });

  test('a decision without remarks is refused, says what to fix and changes nothing', async () => {
    const before = await h.db('vpat_reports').count({ n: '*' });
    const form = page.locator('form[action$="/review"]');
    await form.evaluate((f) => ((f as unknown as PageElement).noValidate = true));
    const row = page.locator('.review-row').first();
    await row.locator('input[type="radio"]').first().check();
    await row.locator('textarea').fill('');
    // The reviewer is named (the form starts empty): the one mistake left is the missing remarks.
    await form.locator('#author').fill('Grace Officer');
    await form.locator('button[type="submit"]').click();
    await page.waitForLoadState();
    const id = (await row.locator('h3').textContent())!.split(' ')[0];
    expect(await page.locator('.error-summary li').allTextContents()).toEqual([
      `${id}: write the remarks shown in the report.`,
    ]);
    expect(await h.db('vpat_reports').count({ n: '*' })).toEqual(before);
    await check('rejected decision');
    await page.goto(`${h.url}/reports/${s.reportId}`);
  });

  test('completing the review with the keyboard only: every decision in one submission, then publish', async () => {
    const versions = async () => Number((await h.db('vpat_reports').count({ n: '*' }))[0].n);
    const before = await versions();
    for (let i = 0; i < s.left.length; i++) {
      // Tab lands on the group's checked choice, "Leave for later" (the last); ↓ wraps to the first.
      await tabTo(page, 'input[type="radio"]:checked');
      expect((await focused(page)).value).toBe('');
      await page.keyboard.press('ArrowDown');
      // The confirmable row offers "confirm" first; the others get a level: ↓ again is Partially Supports.
      if ((await focused(page)).value !== 'confirm') await page.keyboard.press('ArrowDown');
      const chosen = (await focused(page)).value;
      await page.keyboard.press('Tab');
      expect((await focused(page)).name).toMatch(/^remarks-\d+$/);
      await page.keyboard.type(`Reviewed with a screen reader and the keyboard (${chosen}).`);
    }
    await tabTo(page, '#author');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Grace Officer');
    await check('every row decided, not yet sent');
    const start = page.url();
    await page.keyboard.press('Enter');
    // The whole form is one new version of the report: one new address, one new row.
    await page.waitForURL((u) => u.href !== start && u.search.startsWith('?decided='));
    expect(await page.locator('.notice').textContent()).toMatch(
      new RegExp(`^\\s*${s.left.length} decisions recorded: this is the new version\\.\\s*$`),
    );
    expect(await versions()).toBe(before + 1);
    expect(await page.locator('#queue').textContent()).toBe('Waiting for a person (0)');
    await check('decided, nothing left');
    const draftId = new URL(page.url()).pathname.split('/').pop()!;
    const draft = await h.request<VpatReport>('GET', `/api/v1/vpat/${draftId}`, { key: s.key });
    expect(draft.body).toMatchObject({ previous_id: s.reportId, summary: { undecided: 0 } });
    const confirmed = draft.body.criteria.find((c) => c.id === s.confirmable);
    expect(confirmed).toMatchObject({
      conformance: 'supports',
      override: { kind: 'confirm', author: 'Grace Officer' },
    });
    for (const id of s.left.filter((c) => c !== s.confirmable)) {
      const row = draft.body.criteria.find((c) => c.id === id);
      expect(row).toMatchObject({ conformance: 'partially-supports', override: { author: 'Grace Officer' } });
    }

    await tabTo(page, '#publisher');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Grace Officer');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\?published=1$/);
    expect(await page.locator('.notice').textContent()).toBe('Published: this version is final.');
    expect(await page.locator('form[action$="/review"], form[action$="/publish"]').count()).toBe(0);
    await check('published');
    const finalId = new URL(page.url()).pathname.split('/').pop()!;
    const final = await h.request<VpatReport>('GET', `/api/v1/vpat/${finalId}`, { key: s.key });
    expect(final.body).toMatchObject({
      status: 'final',
      previous_id: draftId,
      published: { by: 'Grace Officer' },
    });
  }, 120_000);

  test('each format downloads from the published report with the keyboard', async () => {
    const expected: Record<string, RegExp> = {
      html: /^<!doctype html>/i,
      md: /^# /,
      openacr: /^title: /m,
      pdf: /^%PDF-/,
    };
    for (const [format, start] of Object.entries(expected)) {
      await page.keyboard.press('Escape');
      await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.blur());
      await tabTo(page, `a[href$="/download/${format}"]`);
      const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
      const stream = await download.createReadStream();
      const chunks: Buffer[] = [];
      for await (const c of stream) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks).toString('latin1');
      expect([format, start.test(body)]).toEqual([format, true]);
      expect(body).toContain(format === 'pdf' ? '%%EOF' : 'Docs');
    }
  });

  test('comparing the final report with the first version lists what the reviewers changed', async () => {
    const finalId = new URL(page.url()).pathname.split('/').pop()!;
    await page.goto(`${h.url}/reports/${finalId}/changes?against=${s.firstId}`);
    const criteria = await page.locator('table').first().locator('tbody th').allTextContents();
    for (const id of s.left) expect(criteria.some((t) => t.startsWith(`${id} `))).toBe(true);
    await check('diff');
    expect(violations).toEqual({});
  });

  test('error pages (404, 403, 500) are pages in the layout without violations', async () => {
    const finalUrl = page.url();
    const states: Array<[string, number]> = [];
    const res404 = await page.goto(`${h.url}/reports/vpt_doesnotexist`);
    states.push(['404', res404!.status()]);
    await check('404 page');
    // The reports' table gone for a moment: the server fails, and says so as a page.
    await h.db.schema.renameTable('vpat_reports', 'vpat_reports_gone');
    try {
      const res500 = await page.goto(finalUrl);
      states.push(['500', res500!.status()]);
      expect(await page.locator('h1').textContent()).toBe('Something went wrong');
      await check('500 page');
    } finally {
      await h.db.schema.renameTable('vpat_reports_gone', 'vpat_reports');
    }
    const ingestOnly = await h.createKey({ org: 'acme', scopes: ['ingest'], name: 'CI' });
    const other = await browser.newContext();
    page = await other.newPage();
    await page.goto(`${h.url}/sign-in`);
    await page.fill('#key', ingestOnly);
    await page.press('#key', 'Enter');
    await page.waitForURL(`${h.url}/`);
    states.push(['403', (await page.goto(`${h.url}/`))!.status()]);
    expect(await page.locator('main p').first().textContent()).toBe(
      'This page needs a key with the “read” scope.',
    );
    await check('403 page');
    expect(states).toEqual([
      ['404', 404],
      ['500', 500],
      ['403', 403],
    ]);
    expect(violations).toEqual({});
  });
});
