import type { Browser, Page } from 'playwright-core';
import type { Statement } from '../helpers/api-types.js';
import { useHarness } from '../helpers/harness.js';
import { COMPLETE_ANSWERS, seedStatementSite, type StatementSeed } from '../helpers/statement-seed.js';
import { describeInBrowser, launch, tabTo, violationsOnEveryScreen } from './browser.js';

describeInBrowser('the statement in Chromium', () => {
  let s: StatementSeed;
  let browser: Browser;
  let page: Page;
  let id: string;
  // Declared before the harness, so the browser closes before the server.
  afterAll(async () => {
    await browser?.close();
  });
  const h = useHarness();
  const violations: Record<string, string[]> = {};
  /** axe-core in light and dark, on a desktop and a 320 px wide screen: gathered, and checked at the end. */
  const check = async (state: string) => {
    Object.assign(violations, await violationsOnEveryScreen(page, state));
  };

  beforeAll(async () => {
    s = await seedStatementSite(h);
    const { entity, feedback, contact_email } = COMPLETE_ANSWERS;
    const draft = await h.request<Statement>('POST', '/api/v1/statements', {
      key: s.key,
      body: { siteId: s.siteId, answers: { entity, feedback, contact_email } },
    });
    id = draft.body.id;
    browser = await launch();
    page = await (await browser.newContext()).newPage();
    await page.goto(`${h.url}/sign-in?next=${encodeURIComponent(`/statements/${id}`)}`);
    await page.fill('#key', s.key);
    await page.press('#key', 'Enter');
    await page.waitForURL(`${h.url}/statements/${id}`);
  }, 120_000);

  test('the draft’s page: the evidence, the open questions linked to their fields, the form', async () => {
    expect(await page.locator('h1').textContent()).toBe('Accessibility statement for Acme Shop, version 1');
    const open = page.locator('.notice a');
    expect(await open.allTextContents()).toEqual([
      'Which body enforces the applicable legislation?',
      'Where do people reach the enforcement body (a web address)?',
      'Which accessible alternatives do you offer for the content that is not accessible?',
    ]);
    await open.first().click();
    expect(
      await page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash),
    ).toBe('#answer-enforcement_body');
    await check('draft');
    await page.goto(`${h.url}/sites/${s.siteId}#statements`);
    await check('site page with a draft statement');
  }, 180_000);

  test('answered and published with the keyboard; the published page has no forms', async () => {
    await page.goto(`${h.url}/statements/${id}`);
    await page.fill('#answer-enforcement_url', 'not a web address');
    await page.press('#answer-enforcement_url', 'Enter');
    await page.waitForLoadState();
    expect(await page.locator('.error-summary li').allTextContents()).toEqual([
      'Enforcement body’s web address: Enter a web address starting with https://.',
    ]);
    await check('refused answers');

    await page.fill('#answer-enforcement_body', COMPLETE_ANSWERS.enforcement_body);
    await page.fill('#answer-enforcement_url', COMPLETE_ANSWERS.enforcement_url);
    await page.fill('#answer-alternatives', COMPLETE_ANSWERS.alternatives);
    await page.locator('form[action$="/answers"] button').press('Enter');
    await page.waitForURL(/\?saved=1#answers$/);
    await tabTo(page, '#publisher');
    await page.keyboard.type('Grace Officer');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\?published=1$/);
    expect(await page.locator('form[action^="/statements/"]').count()).toBe(0);
    await check('published');
  }, 180_000);

  test('the rendered statement and the EAA service information have no axe-core violations', async () => {
    await page.setExtraHTTPHeaders({ authorization: `Bearer ${s.key}` });
    for (const format of ['html', 'eaa']) {
      await page.goto(`${h.url}/api/v1/statements/${id}?format=${format}`);
      expect(await page.locator('h1').count()).toBe(1);
      await check(`rendered ${format}`);
    }
    await page.setExtraHTTPHeaders({});
    expect(violations).toEqual({});
  }, 180_000);
});
