import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { KeyInfo, WaiverList } from '../helpers/api-types.js';
import { useHarness } from '../helpers/harness.js';
import {
  axeViolations,
  describeInBrowser,
  launch,
  tabTo,
  type PageElement,
  type PageGlobals,
} from './browser.js';
import { seedConsole, type Seeded } from './seed.js';

describeInBrowser('the console in Chromium', () => {
  let s: Seeded;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  // Declared before the harness, so the browser closes before the server, as it always has.
  afterAll(async () => {
    await browser?.close();
  });
  const h = useHarness();
  beforeAll(async () => {
    browser = await launch();
    context = await browser.newContext();
    page = await context.newPage();
  });

  test('a fresh server: GET / leads to the sign-in page, which has no violation', async () => {
    await page.goto(`${h.url}/`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(await page.locator('h1').textContent()).toBe('Sign in');
    expect(await axeViolations(page)).toEqual([]);
    s = await seedConsole(h);
  });

  test('signing in with the keyboard comes back to the page that asked', async () => {
    await page.goto(`${h.url}/scans/${s.headScanId}`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await tabTo(page, '#key');
    await page.keyboard.type(s.key);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${h.url}/scans/${s.headScanId}`);
    expect(await page.locator('h1').textContent()).toMatch(/^Scan of shop-web/);
  });

  test('every page type has zero axe-core violations (WCAG 2.2 A/AA, best practices), light (and contrast in dark)', async () => {
    const paths = [
      '/',
      `/sites/${s.siteId}`,
      `/scans/${s.headScanId}`,
      `/scans/${s.baseScanIds[0]}?impact=serious&page=2`,
      `/deploys/${s.deployId}`,
      `/deploys/${s.engineDeployId}`,
      `/deploys/${s.partialDeployId}`,
      `/reports/${s.reportId}`,
      '/sign-out',
      `/scans/${s.otherScanId}`,
    ];
    const found: Record<string, string[]> = {};
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of paths) {
        const res = await page.goto(h.url + path);
        expect([path, res?.status()]).toEqual([path, path === `/scans/${s.otherScanId}` ? 404 : 200]);
        const violations = await axeViolations(page, scheme === 'dark');
        if (violations.length) found[`${scheme} ${path}`] = violations;
      }
    }
    expect(found).toEqual({});
    await page.emulateMedia({ colorScheme: 'light' });
  }, 180_000);

  test('the deploy page shows a new issue in plain words: its file and line, its element, how to fix it', async () => {
    await page.goto(`${h.url}/deploys/${s.deployId}`);
    const card = page.locator('li.issue', { hasText: 'button-name' }).first();
    expect(await card.locator('p strong').textContent()).toBe(
      'Element does not have inner text that is visible to screen readers (button-name)',
    );
    const facts = await card.locator('dl.facts').innerText();
    expect(facts).toContain('src/components/BuyButton.tsx:14 (found by a build attribute)');
    expect(facts).toContain('<button id="buy" class="btn btn-primary">');
    expect(await card.locator('ul.fix li').allTextContents()).toEqual([
      'Element does not have inner text that is visible to screen readers',
      'aria-label attribute does not exist or is empty',
      'Element has no title attribute',
    ]);
  });

  test('the scan and deploy pages show the element screenshots, described by their alt text, from signed links', async () => {
    const alt = 'Screenshot of the element #buy that fails the rule button-name';
    for (const path of [`/scans/${s.headScanId}?rule=button-name`, `/deploys/${s.deployId}`]) {
      await page.goto(h.url + path);
      const img = page.getByAltText(alt);
      await img.scrollIntoViewIfNeeded();
      // Loaded and drawn at its size (the seed's 96×32 element and its margin), not a broken image.
      expect(
        await img.evaluate((e) => [(e as unknown as PageElement & { naturalWidth: number }).naturalWidth]),
      ).toEqual([112]);
      expect(await axeViolations(page)).toEqual([]);
      if (process.env.SCREENSHOT_DIR) {
        await page.screenshot({
          path: `${process.env.SCREENSHOT_DIR}/console-${path.split('/')[1]}.png`,
          fullPage: true,
        });
      }
      // The picture's link works without the session (as GitHub's image proxy would fetch it)…
      const src = (await img.getAttribute('src'))!;
      expect(src).toMatch(/^\/screenshots\/img_\w+\.png\?expires=\d+&signature=[\w-]+$/);
      const anonymous = await fetch(h.url + src);
      expect([anonymous.status, anonymous.headers.get('content-type')]).toEqual([200, 'image/png']);
      // …and not once altered.
      expect((await fetch(h.url + src.replace(/signature=./, 'signature=x'))).status).toBe(404);
    }
    // The issue without a picture shows none.
    await page.goto(`${h.url}/scans/${s.headScanId}?rule=image-alt`);
    expect(await page.locator('img.shot').count()).toBe(0);
  });

  test('the deploy page shows an engine change apart: both versions, and the issues that differ, not as new', async () => {
    await page.goto(`${h.url}/deploys/${s.engineDeployId}`);
    expect(await page.locator('h2#new').textContent()).toBe('New issues (0)');
    const section = page.locator('h2#engine-change');
    expect(await section.textContent()).toBe('Issues that differ because the engine changed (2)');
    const text = await page.locator('main').innerText();
    expect(text).toContain(
      'The engine changed from axe-core 4.10.3 (baseline) to axe-core 4.14.1 (this commit)',
    );
    expect(text).toContain('it differs only because the baseline was made with another engine');
    expect(await page.locator('h2#engine-change ~ ol.issues li').count()).toBe(1);
    // The impact table counts them in a column of their own; its impacts add up to its total.
    const table = page.locator('table', { has: page.locator('th', { hasText: 'Engine changed' }) });
    const column = await table.locator('tbody tr td:last-child').allInnerTexts();
    expect(column.at(-1)).toBe('2');
    expect(column.slice(0, -1).reduce((n, c) => n + Number(c), 0)).toBe(2);
    if (process.env.CONSOLE_SCREENSHOT_DIR) {
      await page.screenshot({
        path: `${process.env.CONSOLE_SCREENSHOT_DIR}/deploy-engine.png`,
        fullPage: true,
      });
    }
  });

  test('the deploy page of a partial scan says which pages it compared, as the check run does', async () => {
    await page.goto(`${h.url}/deploys/${s.partialDeployId}`);
    expect(await page.locator('h2#coverage').textContent()).toBe('Pages compared');
    const section = page.locator('h2#coverage + p');
    expect(await section.textContent()).toBe(
      "Compared 2 of 5 pages: this scan covers only the pages listed; the baseline's issues on the other 3 pages count neither as fixed nor as existing.",
    );
    // The pages as the scan gave them, as text: a page's address never becomes markup.
    expect(await page.locator('h2#coverage ~ ul').first().locator('li').allInnerTexts()).toEqual([
      'https://shop.example/cart',
      'https://shop.example/checkout?step=<2>',
    ]);
    // A full scan's decision has no such section.
    await page.goto(`${h.url}/deploys/${s.deployId}`);
    expect(await page.locator('h2#coverage').count()).toBe(0);
    if (process.env.CONSOLE_SCREENSHOT_DIR) {
      await page.goto(`${h.url}/deploys/${s.partialDeployId}`);
      await page.screenshot({
        path: `${process.env.CONSOLE_SCREENSHOT_DIR}/deploy-partial.png`,
        fullPage: true,
      });
    }
  });

  test("the scan page shows where an issue's element comes from", async () => {
    await page.goto(`${h.url}/scans/${s.headScanId}?rule=button-name`);
    expect(await page.locator('main').innerText()).toContain('src/components/BuyButton.tsx:14');
  });

  test('no page type scrolls sideways on a 320 px wide screen', async () => {
    // A page with a long URL: its scan page's page filter lists it.
    const long = await h.request<{ id: string }>('POST', '/api/v1/scans', {
      key: s.key,
      body: {
        siteId: 'long-urls',
        url: 'https://shop.example/',
        pages: [
          {
            url: `https://shop.example/catalogue/${'very-long-category-name/'.repeat(4)}product?colour=midnight-blue`,
            issues: [{ rule: 'image-alt', impact: 'critical', selector: 'img' }],
          },
        ],
      },
    });
    expect(long.status).toBe(201);
    const narrow = await browser.newPage({ viewport: { width: 320, height: 640 } });
    await narrow.context().addCookies(await context.cookies());
    const wide: Record<string, number> = {};
    for (const path of [
      `/scans/${long.body.id}`,
      '/',
      `/sites/${s.siteId}`,
      `/scans/${s.headScanId}`,
      `/deploys/${s.deployId}`,
      `/deploys/${s.partialDeployId}`,
      `/reports/${s.reportId}`,
      '/sign-out',
    ]) {
      await narrow.goto(h.url + path);
      expect(new URL(narrow.url()).pathname).toBe(path === '/sign-out' ? '/sign-out' : path.split('?')[0]);
      const width = await narrow.evaluate(
        () =>
          (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
            .documentElement.scrollWidth,
      );
      if (width > 320) wide[path] = width;
    }
    await narrow.close();
    expect(wide).toEqual({});
  });

  test('waiving a new issue with the keyboard only', async () => {
    await page.goto(`${h.url}/deploys/${s.deployId}`);
    await tabTo(page, 'details summary');
    await page.keyboard.press('Enter');
    await tabTo(page, 'textarea[name="reason"]');
    await page.keyboard.type('Third-party widget; the vendor ships a fix in January.');
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement!.name),
    ).toBe('expires');
    const end = new Date(Date.now() + 30 * 86_400_000);
    const mmddyyyy = `${String(end.getUTCMonth() + 1).padStart(2, '0')}${String(end.getUTCDate()).padStart(2, '0')}${end.getUTCFullYear()}`;
    await page.keyboard.type(mmddyyyy);
    await tabTo(page, 'form[action$="/waive"] button[type="submit"]');
    await page.keyboard.press('Enter');
    await page.waitForURL(/waived=wvr_/);
    expect(await page.locator('.notice').textContent()).toMatch(/^Waiver wvr_\w+ created/);
    const waivers = await h.request<WaiverList>('GET', `/api/v1/waivers?siteId=${s.siteId}`, { key: s.key });
    expect(waivers.body.data).toEqual([
      expect.objectContaining({
        fingerprint: s.failingFingerprint,
        reason: 'Third-party widget; the vendor ships a fix in January.',
        reason_category: 'non-compliance',
      }),
    ]);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('a rejected waive form says what to fix, without violations', async () => {
    await page.goto(`${h.url}/deploys/${s.deployId}`);
    await page.locator('details summary').first().click();
    await page
      .locator('form[action$="/waive"] button[type="submit"]')
      .first()
      .evaluate((b) => ((b as unknown as PageElement).form!.noValidate = true));
    await page.locator('form[action$="/waive"] button[type="submit"]').first().click();
    await page.waitForLoadState();
    expect(await page.locator('.error-summary li').allTextContents()).toEqual([
      'Give a reason for the waiver.',
      'Choose an end date in the next 365 days.',
    ]);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('signing out with the keyboard; a revoked key’s session is gone', async () => {
    await page.goto(`${h.url}/`);
    await tabTo(page, 'button.link-button');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/sign-in\?signed_out=1$/);
    expect(await page.locator('.notice').textContent()).toBe('You are signed out.');
    await page.goto(`${h.url}/`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');

    const key = await h.createKey({ org: 'acme', scopes: ['read'] });
    await page.fill('#key', key);
    await page.press('#key', 'Enter');
    await page.waitForURL(`${h.url}/`);
    const me = await h.request<KeyInfo>('GET', '/api/v1/keys/me', { key });
    await h.request('DELETE', `/api/v1/keys/${me.body.id}`, { admin: true });
    await page.reload();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
  });
});
