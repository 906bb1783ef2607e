import type { Browser } from 'playwright-core';
import { AXE_VERSION } from './axe.js';
import { launchBrowser, resolveBrowser } from './browser.js';
import { silentProgress, type ScanOptions, type ScanProgress, type SessionSettings } from './options.js';
import { PageWorker, type PageJob, type PageOutcome } from './page-scan.js';
import { startPages } from './pages.js';
import { shardOf } from '../core/scans/shards.js';
import { openBrowserSession } from './session.js';
import { SourceLocator } from './locate/locator.js';
import { looksLikePage, pageAddress, globsMatcher } from './url-match.js';
import { serveFolder } from './serve.js';
import { pagePlanner, sessionKey, type PagePlan } from './url-settings.js';
import { atViewport } from '../core/text/wording.js';

export interface ScanRun {
  /**
   * Every page in scan order (the sources' order, then the crawl's, level by level), a page once per
   * viewport, in the order its viewports were given.
   */
  pages: PageOutcome[];
  engine: { name: 'axe-core'; version: string };
  browser: string;
  /** Pages the crawl found beyond max-pages, not scanned. */
  notScanned: number;
  /** The site: the origin of the first page listed (also when this shard got no page). */
  siteUrl?: string;
  /** With a shard: how many pages the whole list has (every shard's together). */
  listed?: number;
  /** What the scan covers (options.ts `scope`): its body says so, and a partial scan is compared on its pages. */
  scope: ScanOptions['scope'];
  /** With `serve`: the address the folder was served at for this run (the folder is the absolute path). */
  served?: { origin: string; dir: string; spa: boolean };
}

/** A level's pages, each once per viewport of its plan, in list order. */
function jobsOf(urls: string[], planOf: (url: string) => PagePlan): PageJob[] {
  return urls.flatMap((url) => {
    const plan = planOf(url);
    return plan.sessions.map((session) => ({ url, waitFor: plan.waitFor, session }));
  });
}

/**
 * The order workers take the jobs in: grouped by the session they need (stable within a group), so a
 * worker changes its browser context once per session rather than page after page.
 */
function takingOrder(jobs: PageJob[]): number[] {
  const rank = new Map<string, number>();
  const keys = jobs.map((j) => {
    const key = sessionKey(j.session);
    if (!rank.has(key)) rank.set(key, rank.size);
    return rank.get(key)!;
  });
  return jobs.map((_, i) => i).sort((a, b) => keys[a] - keys[b] || a - b);
}

/**
 * A pool of workers, one browser context and tab each, taking pages from a shared list. Results keep the
 * list's order whatever order the workers finish in.
 */
async function scanLevel(
  workers: PageWorker[],
  jobs: PageJob[],
  collectLinks: boolean,
  progress: { report: (o: PageOutcome) => void },
): Promise<PageOutcome[]> {
  const out = new Array<PageOutcome>(jobs.length);
  const order = takingOrder(jobs);
  let next = 0;
  await Promise.all(
    workers.map(async (worker) => {
      while (next < order.length) {
        const i = order[next++];
        out[i] = await worker.scan(jobs[i], collectLinks);
        progress.report(out[i]);
      }
    }),
  );
  return out;
}

/** New same-origin pages linked from a level, in page order then link order, not yet seen or excluded. */
function discover(
  level: PageOutcome[],
  origins: Set<string>,
  seen: Set<string>,
  exclude: string[],
): string[] {
  const excluded = globsMatcher(exclude);
  const found: string[] = [];
  for (const outcome of level) {
    if (!outcome.ok) continue;
    for (const link of outcome.links) {
      const page = pageAddress(link);
      if (!page || seen.has(page.key) || !origins.has(new URL(page.url).origin)) continue;
      seen.add(page.key);
      if (!excluded(page.url) && !excluded(page.key) && looksLikePage(page.url)) found.push(page.url);
    }
  }
  return found;
}

/**
 * Finds the pages, scans each in one browser with `concurrency` workers, and crawls level by level (so
 * which pages fit under max-pages never depends on which worker was faster). Failed pages are in the
 * result; scanProblem says whether the run as a whole can be trusted. With `serve`, the folder is served
 * on 127.0.0.1 for the run and stopped at its end, whatever happens.
 */
export async function scan(
  options: ScanOptions,
  progress: ScanProgress = silentProgress,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ScanRun> {
  if (!options.serve) return scanPages(options, progress, env);
  const executable = resolveBrowser({ chromePath: options.chromePath, env });
  const served = await serveFolder(options.serve.dir, options.serve.spa);
  try {
    progress.note(`Serving ${options.serve.dir} at ${served.origin}/`);
    const run = await scanPages({ ...options, chromePath: executable }, progress, env, served.origin);
    return { ...run, served: { ...options.serve, origin: served.origin } };
  } finally {
    await served.close();
  }
}

/**
 * A served folder's findings are located in its files as `source-map "/ => DIR"` would (unless mappings
 * are given): the served origin's paths are the folder's files.
 */
function servedSourceMaps(options: ScanOptions, origin: string): ScanOptions['sourceMaps'] {
  if (!options.serve || options.sourceMaps.length > 0) return options.sourceMaps;
  return [{ prefix: `${origin}/`, dir: options.serve.dir }];
}

async function scanPages(
  options: ScanOptions,
  progress: ScanProgress,
  env: NodeJS.ProcessEnv,
  served?: string,
): Promise<ScanRun> {
  const executable = resolveBrowser({ chromePath: options.chromePath, env });
  let level = await startPages(options, options.headers, served);
  const siteUrl = new URL(level[0]).origin + '/';
  const listed = level.length;
  const origins = new Set(level.map((u) => new URL(u).origin));
  const seen = new Set(level.map((u) => pageAddress(u)!.key));
  if (options.crawl) level = level.slice(0, options.maxPages);
  if (options.shard) {
    level = shardOf(level, options.shard);
    progress.note(
      `Shard ${options.shard.index} of ${options.shard.total}: ${level.length} of the ${listed} pages listed`,
    );
  }
  progress.note(`Scanning with axe-core ${AXE_VERSION} in ${executable}`);
  const isLoginPage = options.loginUrl ? globsMatcher([options.loginUrl]) : () => false;
  const locator = options.sourceRoot
    ? new SourceLocator({
        sourceRoot: options.sourceRoot,
        sourceMaps: served ? servedSourceMaps(options, served) : options.sourceMaps,
        sourceAttribute: options.sourceAttribute,
      })
    : null;
  const planOf = pagePlanner(options);
  const browser: Browser = await launchBrowser(executable);
  const pages: PageOutcome[] = [];
  let notScanned = 0;
  let workers: PageWorker[] = [];
  try {
    let jobs = jobsOf(level, planOf);
    const count = Math.max(1, Math.min(options.concurrency, jobs.length));
    // One budget of pictures for the whole scan, whichever worker takes them.
    const budget = { left: options.screenshots.perScan };
    const open = (session: SessionSettings) => openBrowserSession(browser, options, [...origins], session);
    workers = Array.from(
      { length: count },
      () => new PageWorker(open, options, isLoginPage, locator, budget),
    );
    let planned = jobs.length;
    let finished = 0;
    // Pages (addresses) scanned so far: max-pages counts pages, whatever the number of viewports.
    let scannedPages = 0;
    progress.planned(planned);
    const report = { report: (o: PageOutcome) => progress.page(describe(o), ++finished, planned) };
    while (jobs.length > 0) {
      const outcomes = await scanLevel(workers, jobs, options.crawl, report);
      pages.push(...outcomes);
      scannedPages += level.length;
      if (!options.crawl) break;
      const found = discover(outcomes, origins, seen, options.exclude);
      level = found.slice(0, Math.max(0, options.maxPages - scannedPages));
      notScanned += found.length - level.length;
      // Planned once: a level's pages raise the total the page lines carry, not another announcement.
      jobs = jobsOf(level, planOf);
      planned = pages.length + jobs.length;
    }
  } finally {
    await Promise.all(workers.map((w) => w.close()));
    await browser.close();
  }
  const engine = { name: 'axe-core' as const, version: AXE_VERSION };
  return {
    pages,
    engine,
    browser: executable,
    notScanned,
    siteUrl,
    scope: options.scope,
    ...(options.shard ? { listed } : {}),
  };
}

function describe(o: PageOutcome): { url: string; ok: boolean; detail: string } {
  const url = atViewport(o.url, o.viewport);
  if (!o.ok) return { url, ok: false, detail: o.error };
  const n = o.axe.violations.reduce((sum, v) => sum + v.nodes.length, 0);
  return { url, ok: true, detail: `${n} ${n === 1 ? 'violation' : 'violations'}` };
}

/**
 * Why the run must fail even before any gate: a page landed on the login page (the session is not signed in,
 * so the scan tested the login form instead of the app), or every page failed (nothing was tested).
 */
export function scanProblem(pages: PageOutcome[]): string | null {
  const login = pages.filter((p) => !p.ok && p.loginRedirect);
  if (login.length > 0) {
    return (
      `${login.length} of ${pages.length} ${pages.length === 1 ? 'page was' : 'pages were'} redirected to the login page ` +
      `(first: ${login[0].url}): the session is not signed in, so the scan would test the login form instead of the app.`
    );
  }
  const failed = pages.filter((p) => !p.ok);
  if (pages.length > 0 && failed.length === pages.length) {
    return `Every page failed (${pages.length}); the first, ${failed[0].url}: ${failed[0].error}. Nothing was tested.`;
  }
  return null;
}
