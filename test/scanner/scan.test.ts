import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { AxeResults } from 'axe-core';
import { chromium, type Browser } from 'playwright-core';
import { defaultScanOptions, type ScanOptions } from '../../scanner/options.js';
import type { PageOutcome, ScannedPage } from '../../scanner/page-scan.js';
import { scan, scanProblem } from '../../scanner/scan.js';
import { CHROMIUM_PATH } from '../helpers/axe-browser.js';
import { chromium as chromiumPart, describeWith } from '../helpers/requirements.js';
import { startSite, type Site } from './site.js';

// Real pages on loopback, scanned in Debian's Chromium.

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site.close());

function options(overrides: Partial<ScanOptions>): ScanOptions {
  return { ...defaultScanOptions(), chromePath: CHROMIUM_PATH, concurrency: 3, ...overrides };
}

const paths = (pages: PageOutcome[]) => pages.map((p) => new URL(p.url).pathname);

/** axe-core run directly (no scanner code): its own script tag in every frame, the same tags. */
async function axeDirectly(browser: Browser, url: string, tags: string[]) {
  const context = await browser.newContext({ bypassCSP: true });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    for (const frame of page.frames()) await frame.addScriptTag({ content: axeSource });
    return await page.evaluate((values) => {
      // What axe-core's script defines in the page (as scanner/axe.ts reads it).
      const g = globalThis as unknown as {
        axe: { run: (ctx: unknown, opts: unknown) => Promise<AxeResults> };
        document: unknown;
      };
      return g.axe.run(g.document, { runOnly: { type: 'tag', values } });
    }, tags);
  } finally {
    await context.close();
  }
}

const findings = (result: Pick<AxeResults, 'violations' | 'incomplete'>) =>
  [...result.violations, ...result.incomplete]
    .flatMap((r) => r.nodes.map((n) => `${r.id} ${JSON.stringify(n.target)} ${n.impact}`))
    .sort();

describeWith(chromiumPart, 'scanner in Chromium', () => {
  test('crawls same-origin links through cycles, in a stable order, without fragments, excluded paths or files; findings equal axe-core run directly', async () => {
    const said: string[] = [];
    const progress = {
      planned: (total: number) => said.push(`planned ${total}`),
      page: (_p: unknown, done: number, total: number) => said.push(`${done}/${total}`),
      note: (message: string) => said.push(message),
    };
    const run = await scan(
      options({ urls: [`${site.url}/`], crawl: true, maxPages: 10, exclude: ['/admin/**'] }),
      progress,
    );
    expect(paths(run.pages)).toEqual(['/', '/a', '/b', '/c', '/d']);
    // Said once, however many levels the crawl finds: the page lines carry the total as it grows.
    expect(said.filter((line) => !/^\d+\/\d+$/.test(line))).toEqual([
      expect.stringMatching(/^Scanning with axe-core /) as unknown,
      'planned 1',
    ]);
    expect(said.at(-1)).toBe('5/5');
    expect(said[2]).toBe('1/1');
    expect(run.pages.every((p) => p.ok)).toBe(true);
    expect(run.engine).toEqual({
      name: 'axe-core',
      version: (require('axe-core/package.json') as { version: string }).version,
    });
    expect(scanProblem(run.pages)).toBeNull();

    const tags = defaultScanOptions().axeTags;
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
    try {
      for (const p of run.pages as ScannedPage[]) {
        // The iframe's findings come through (the scanner injects axe into every frame) on the CSP page.
        const direct = await axeDirectly(browser, p.url, tags);
        expect(findings(p.axe)).toEqual(findings(direct));
        expect(p.axe.testEngine.version).toBe(direct.testEngine.version);
        expect(p.axe.passes.length + p.axe.inapplicable.length).toBeGreaterThan(10); // the rules that ran
      }
    } finally {
      await browser.close();
    }
    const b = run.pages[2] as ScannedPage;
    expect(findings(b.axe).some((f) => f.includes('"iframe"'))).toBe(true);
    expect(findings((run.pages[1] as ScannedPage).axe).some((f) => f.startsWith('image-alt'))).toBe(true);
  }, 120_000);

  test('max-pages cuts the crawl; the sitemap index is followed and rewritten; failed pages are reported with the reason and status', async () => {
    const cut = await scan(options({ urls: [`${site.url}/`], crawl: true, maxPages: 2 }));
    expect(paths(cut.pages)).toEqual(['/', '/a']);
    expect(cut.notScanned).toBeGreaterThan(0);

    const urlsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scan-urls-')), 'urls.txt');
    fs.writeFileSync(urlsFile, `# extra pages\n${site.url}/d\n\n${site.url}/a\n`);
    const run = await scan(
      options({
        urls: [`${site.url}/`],
        sitemap: `${site.url}/sitemap.xml`,
        sitemapRewrite: { from: 'https://prod.example.com', to: site.url },
        urlsFile,
        timeoutMs: 8_000,
      }),
    );
    expect(paths(run.pages)).toEqual(['/', '/a', '/c', '/missing', '/slow', '/d']);
    const byPath = Object.fromEntries(run.pages.map((p) => [new URL(p.url).pathname, p]));
    expect(byPath['/missing']).toMatchObject({ ok: false, status: 404, error: 'HTTP 404' });
    expect(byPath['/slow']).toMatchObject({ ok: false, error: 'timed out after 8 s' });
    expect(scanProblem(run.pages)).toBeNull();
  }, 120_000);

  test('logged-in pages: cookies or headers sign in; a page that lands on login-url fails the run', async () => {
    const base = { urls: [`${site.url}/private`], loginUrl: '/login*' };
    const anonymous = await scan(options(base));
    expect(anonymous.pages[0]).toMatchObject({ ok: false, loginRedirect: true });
    expect(scanProblem(anonymous.pages)).toMatch(/redirected to the login page/);

    const cookie = await scan(options({ ...base, cookies: [{ name: 'session', value: 'ok' }] }));
    expect(cookie.pages[0]).toMatchObject({ ok: true, status: 200, title: 'Account' });

    site.seen.length = 0;
    const header = await scan(
      options({ ...base, urls: [`${site.url}/private`], headers: { 'x-preview-token': 'letmein' } }),
    );
    expect(header.pages[0]).toMatchObject({ ok: true, title: 'Account' });
    expect(site.seen.find((s) => s.path === '/private')?.headers['x-preview-token']).toBe('letmein');
  }, 120_000);

  test('a run where every page failed is a failed run', async () => {
    const run = await scan(options({ urls: [`${site.url}/missing`, `${site.url}/gone`] }));
    expect(run.pages.map((p) => p.ok)).toEqual([false, false]);
    expect(scanProblem(run.pages)).toMatch(/^Every page failed \(2\)/);
  }, 60_000);
});
