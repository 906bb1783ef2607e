import type { BrowserContext, Page } from 'playwright-core';
import { prepareTab, runAxe } from './axe.js';
import type { AxeResults } from 'axe-core';
import type { ScanOptions, SessionSettings } from './options.js';
import { sessionKey } from './url-settings.js';
import type { SourceLocator } from './locate/locator.js';
import { shootViolations, type ElementShot, type ShotBudget } from './screenshots.js';

export interface ScannedPage {
  ok: true;
  url: string;
  finalUrl: string;
  status: number | null;
  title: string;
  axe: AxeResults;
  /** Same-document links of the page (absolute), for the crawl. */
  links: string[];
  /** Pictures of its violating elements (none when turned off). */
  screenshots: ElementShot[];
  /** The viewport it was scanned at, when one was named (`390x844`, `iPhone 13`). */
  viewport?: string;
}

export interface FailedPage {
  ok: false;
  url: string;
  finalUrl: string | null;
  status: number | null;
  error: string;
  /** The page ended on the login page: the session was not signed in. */
  loginRedirect: boolean;
  viewport?: string;
}

export type PageOutcome = ScannedPage | FailedPage;

class PageTimeout extends Error {}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** One page to scan at one viewport: a page is scanned once per viewport its plan names. */
export interface PageJob {
  url: string;
  /** Its own `wait-for`, or the run's. */
  waitFor: string | null;
  session: SessionSettings;
}

interface TabTools {
  options: ScanOptions;
  waitFor: string | null;
  isLoginPage: (url: string) => boolean;
  locator: SourceLocator | null;
}

async function load(page: Page, url: string, tools: TabTools, collectLinks: boolean): Promise<PageOutcome> {
  const { options, isLoginPage, locator, waitFor } = tools;
  const response = await page.goto(url, { waitUntil: options.waitUntil, timeout: options.timeoutMs });
  const status = response?.status() ?? null;
  const finalUrl = page.url();
  const failed = (error: string, loginRedirect = false): FailedPage => ({
    ok: false,
    url,
    finalUrl,
    status,
    error,
    loginRedirect,
  });
  // Checked before the status: a login page answers 200, and its scan would pass for the app behind it.
  if (isLoginPage(finalUrl)) return failed(`redirected to the login page (${finalUrl})`, true);
  if (status !== null && status >= 400) return failed(`HTTP ${status}`);
  if (waitFor) {
    try {
      await page.waitForSelector(waitFor, { timeout: options.timeoutMs });
    } catch {
      return failed(`"${waitFor}" did not appear within ${seconds(options.timeoutMs)}`);
    }
  }
  const links = collectLinks
    ? await page.evaluate(() =>
        Array.from(
          (
            globalThis as unknown as {
              document: { querySelectorAll(s: string): ArrayLike<{ href: unknown }> };
            }
          ).document.querySelectorAll('a[href]'),
          (a) => (typeof a.href === 'string' ? a.href : ''),
        ),
      )
    : [];
  const { axe, title } = await runAxe(page, options.axeTags, options.keepPasses);
  if (locator) {
    // The document as the server sent it: a static page is found by these bytes.
    const body = response ? await response.body().catch(() => null) : null;
    await locator.locate(page, finalUrl, axe, body);
  }
  return { ok: true, url, finalUrl, status, title, axe, links, screenshots: [] };
}

/**
 * Loads one URL in the worker's tab, waits as the options say, and runs axe-core. Never throws: a page that
 * fails (navigation error, HTTP error, timeout, login redirect) is reported with the reason and the HTTP
 * status when there was one. The whole page, axe included, has `timeout` to finish.
 */
async function scanInTab(
  page: Page,
  url: string,
  tools: TabTools,
  collectLinks: boolean,
): Promise<PageOutcome> {
  const { options } = tools;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PageTimeout()), options.timeoutMs);
  });
  try {
    return await Promise.race([load(page, url, tools, collectLinks), deadline]);
  } catch (err) {
    const timedOut = err instanceof PageTimeout || (err instanceof Error && err.name === 'TimeoutError');
    const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return {
      ok: false,
      url,
      finalUrl: null,
      status: null,
      error: timedOut ? `timed out after ${seconds(options.timeoutMs)}` : message,
      loginRedirect: false,
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One worker's tab, reused from page to page: a new tab costs a renderer process and its set-up, and in a
 * renderer that ran axe-core before, axe's script compiles from the cache. Each navigation is a new document
 * (URLs are unique; a route is reached through a blank page), so nothing of one page's scripts reaches the next. After a failed
 * page the tab is thrown away, so a page still loading, stuck or crashed never touches the next. The tab
 * lives in a browser context of the session its pages need (headers, login, viewport): a page that needs
 * another one closes this context and opens that one (the scan hands out pages grouped by session).
 */
export class PageWorker {
  private page: Page | null = null;
  private context: { key: string; context: BrowserContext } | null = null;

  constructor(
    private readonly open: (session: SessionSettings) => Promise<BrowserContext>,
    private readonly options: ScanOptions,
    private readonly isLoginPage: (url: string) => boolean,
    private readonly locator: SourceLocator | null = null,
    private readonly budget: ShotBudget = { left: options.screenshots.perScan },
  ) {}

  private async contextFor(session: SessionSettings): Promise<BrowserContext> {
    const key = sessionKey(session);
    if (this.context?.key === key) return this.context.context;
    await this.close();
    const context = await this.open(session);
    this.context = { key, context };
    return context;
  }

  async scan(job: PageJob, collectLinks: boolean): Promise<PageOutcome> {
    const context = await this.contextFor(job.session);
    if (!this.page) {
      this.page = await context.newPage();
      this.page.setDefaultTimeout(this.options.timeoutMs);
      await prepareTab(this.page);
    }
    const page = this.page;
    // A route (`/#/settings`) after another page of its app would be a same-document navigation.
    if (new URL(job.url).hash && page.url() !== 'about:blank') await page.goto('about:blank');
    const tools = {
      options: this.options,
      waitFor: job.waitFor,
      isLoginPage: this.isLoginPage,
      locator: this.locator,
    };
    const outcome = await scanInTab(page, job.url, tools, collectLinks);
    if (job.session.viewport) outcome.viewport = job.session.viewport.name;
    if (!outcome.ok) await this.closeTab();
    // After the page's deadline, not under it: pictures help, they never fail a page.
    else
      outcome.screenshots = await shootViolations(page, outcome.axe, this.options.screenshots, this.budget);
    return outcome;
  }

  private async closeTab(): Promise<void> {
    const page = this.page;
    this.page = null;
    await page?.close().catch(() => {});
  }

  /** Closes the tab and its context. */
  async close(): Promise<void> {
    await this.closeTab();
    const context = this.context;
    this.context = null;
    await context?.context.close().catch(() => {});
  }
}
