import os from 'node:os';
import path from 'node:path';
import nock from 'nock';
import type { Browser, Page } from 'playwright-core';
import { useHarness } from '../helpers/harness.js';
import { axeViolations, describeInBrowser, launch, tabTo } from './browser.js';
import { codeExchange, readAuthorize, SIGN_IN_ENV, userApi, type FakeUser } from './github-user.js';
import { seedConsole, type Seeded } from './seed.js';

const INSTALLATION = 9001;
const ada: FakeUser = {
  login: 'ada',
  token: 'ghu_AdaBrowserToken00000000000000000000',
  installations: { [INSTALLATION]: ['acme/shop-web'] },
};
const bob: FakeUser = {
  login: 'bob',
  token: 'ghu_BobBrowserToken00000000000000000000',
  installations: { [INSTALLATION]: ['acme/docs'] },
};

/** Where the screenshot of the sign-in page is written (docs/console.md shows a copy). */
export const SCREENSHOT = path.join(os.tmpdir(), 'a11y-gate-sign-in-with-github.png');

/**
 * GitHub's authorize page as the browser meets it: the user approves, and GitHub sends the browser back
 * to the App's callback with a code and the state it was given. The server's side (code exchange, the
 * user's installations and repositories) is nock's GitHub.
 */
async function approveOnGitHub(page: Page, user: FakeUser): Promise<void> {
  const authorize = (u: URL) => u.origin === 'https://github.com' && u.pathname === '/login/oauth/authorize';
  await page.context().route(authorize, async (route) => {
    const a = readAuthorize(route.request().url());
    const code = `code-${user.login}-${Date.now()}`;
    codeExchange({ code, challenge: a.challenge, redirectUri: a.redirectUri, token: user.token });
    userApi(user);
    const back = new URL(a.redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', a.state);
    await route.fulfill({ status: 302, headers: { location: back.toString() } });
  });
}

describeInBrowser('signing in with GitHub in Chromium', () => {
  let s: Seeded;
  let browser: Browser;
  afterAll(async () => {
    await browser?.close();
    nock.cleanAll();
    nock.enableNetConnect();
  });
  const h = useHarness({ env: SIGN_IN_ENV });
  beforeAll(async () => {
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
    browser = await launch();
    s = await seedConsole(h);
    await h.request('POST', '/api/v1/scans', {
      key: s.key,
      body: {
        siteId: 'docs-web',
        url: 'https://docs.example/',
        branch: 'main',
        pages: [{ url: 'https://docs.example/', issues: [] }],
      },
    });
    for (const [site, repository] of [
      ['shop-web', 'acme/shop-web'],
      ['docs-web', 'acme/docs'],
    ]) {
      await h.request('PATCH', `/api/v1/sites/${site}`, { key: s.key, body: { repository } });
    }
    await h.request('POST', '/api/v1/github/installations', {
      admin: true,
      body: { installation_id: INSTALLATION, org: 'acme' },
    });
  });

  test('the sign-in page offers "Sign in with GitHub", with no violation in light or dark', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${h.url}/deploys/${s.deployId}`);
      expect(new URL(page.url()).pathname).toBe('/sign-in');
      expect(await page.getByRole('link', { name: 'Sign in with GitHub' }).count()).toBe(1);
      expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual([
        'With GitHub',
        'With an API key',
      ]);
      expect(await axeViolations(page, scheme === 'dark')).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    await context.close();
  });

  test("a person who can read the repository clicks through to the site's deploy page", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await approveOnGitHub(page, ada);
    // As from a check run's Details link: the API address of the deploy event, opened in a browser,
    // leads to its page, which asks to sign in.
    const details = await context.newPage();
    await details.goto(`${h.url}/api/v1/deploy/${s.deployId}`);
    expect(details.url()).toBe(`${h.url}/sign-in?next=${encodeURIComponent(`/deploys/${s.deployId}`)}`);
    await details.close();
    await page.goto(`${h.url}/sign-in?next=${encodeURIComponent(`/deploys/${s.deployId}`)}`);
    // The button is reached with the keyboard; it is then clicked (Playwright's routing, which plays
    // GitHub's authorize page here, misses navigations started by a key press).
    await tabTo(page, '#github');
    await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
    await page.waitForURL(`${h.url}/deploys/${s.deployId}`);
    expect(await page.locator('h1').textContent()).toMatch(/^Gate decision for /);
    expect(await page.locator('.who').textContent()).toBe('ada · acme');
    expect(await page.getByRole('button', { name: /Waive/ }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${h.url}/`);
    expect(await page.locator('.cards h2').allTextContents()).toEqual(['shop-web']);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  test('a person who cannot read it gets the 404 page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await approveOnGitHub(page, bob);
    await page.goto(`${h.url}/sign-in?next=${encodeURIComponent(`/deploys/${s.deployId}`)}`);
    // The button is reached with the keyboard; it is then clicked (Playwright's routing, which plays
    // GitHub's authorize page here, misses navigations started by a key press).
    await tabTo(page, '#github');
    await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
    await page.waitForURL(`${h.url}/deploys/${s.deployId}`);
    expect(await page.locator('.who').textContent()).toBe('bob · acme');
    const res = await page.reload();
    expect(res?.status()).toBe(404);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  test('a forged state comes back to the sign-in page with its reason, without violations', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${h.url}/sign-in`);
    const res = await page.goto(`${h.url}/sign-in/github/callback?code=x&state=forged`);
    expect(res?.status()).toBe(403);
    expect(await page.locator('.error-summary').textContent()).toContain(
      'could not be matched to this browser',
    );
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
