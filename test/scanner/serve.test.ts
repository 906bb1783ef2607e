import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LocatedNode } from '../../scanner/locate/locator.js';
import type { ScanOptions } from '../../scanner/options.js';
import type { PageOutcome, ScannedPage } from '../../scanner/page-scan.js';
import { PageSourceError } from '../../scanner/pages.js';
import { scan } from '../../scanner/scan.js';
import { parseScanSettings } from '../../scanner/settings.js';
import { CHROMIUM_PATH } from '../helpers/axe-browser.js';
import { chromium, describeWith } from '../helpers/requirements.js';

// A built folder served by the scanner itself (`serve`) and scanned in Debian's Chromium: the pages a folder
// gives (a crawl, its sitemap, a single-page app's routes), one page per address, findings located in its
// files, and the server gone once the run ends.

const page = (title: string, body: string) =>
  [
    '<!doctype html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>${title}</title></head>`,
    '<body>',
    '<main>',
    `<h1>${title}</h1>`,
    body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');

let root: string;
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-serve-'));
  // A static site whose pages link to each folder both ways: `docs/` and `docs/index.html`, `/` and `index.html`.
  write(
    'site/index.html',
    page(
      'Home',
      '<a href="index.html">Home again</a> <a href="./#main">Skip</a> <a href="docs/">Docs</a>\n' +
        '<a href="docs/index.html">Docs again</a> <a href="about">About</a>\n<img src="logo.png">',
    ),
  );
  write('site/docs/index.html', page('Docs', '<a href="/">Home</a> <a href="../index.html">Home again</a>'));
  write('site/about.html', page('About', '<a href="/index.htm">Home</a>'));
  // The same pages listed by a sitemap index of the production host.
  write('mapped/index.html', page('Home', '<p>Welcome.</p>'));
  write('mapped/about/index.html', page('About', '<p>About us.</p>'));
  write(
    'mapped/sitemap.xml',
    '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
      '<sitemap><loc>https://www.example.com/sitemaps/pages.xml</loc></sitemap></sitemapindex>',
  );
  write(
    'mapped/sitemaps/pages.xml',
    '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
      ['/', '/about/', '/index.html', '/about/index.html']
        .map((p) => `<url><loc>https://www.example.com${p}</loc></url>`)
        .join('') +
      '</urlset>',
  );
  // A single-page app: every route is answered by index.html, which renders it.
  write(
    'app/index.html',
    page(
      'App',
      '<p id="route"></p><script>document.title = "App " + location.pathname + location.hash;' +
        'document.getElementById("route").textContent = location.pathname + location.hash;</script>',
    ),
  );
});

/** The shared reading of the Action's inputs and the CLI's flags, with the browser and a small pool. */
function settings(values: Record<string, string>): ScanOptions {
  const get = (name: string) => values[name] ?? '';
  const options = parseScanSettings(get, (name, problem) => new Error(`${name} ${problem}`))!;
  return { ...options, chromePath: CHROMIUM_PATH, concurrency: 2 };
}

/** The scan, with the served address it announced. */
async function served(options: ScanOptions): Promise<{ pages: PageOutcome[]; origin: string }> {
  let origin = '';
  const progress = {
    planned: () => {},
    page: () => {},
    note: (m: string) => {
      origin = /^Serving .+ at (http:\/\/127\.0\.0\.1:\d+)\/$/.exec(m)?.[1] ?? origin;
    },
  };
  const run = await scan(options, progress);
  return { pages: run.pages, origin };
}

const paths = (pages: PageOutcome[]) => pages.map((p) => new URL(p.url).pathname);

/** True while something answers at the address. */
const answers = (origin: string) =>
  fetch(origin).then(
    () => true,
    () => false,
  );

describeWith(chromium, 'a served folder scanned in Chromium', () => {
  test('no pages given: a crawl from / that scans each page once, its findings located in the folder’s files', async () => {
    const { pages, origin } = await served({
      ...settings({ serve: path.join(root, 'site'), screenshots: 'false' }),
      sourceRoot: root,
    });
    // `/` and `index.html`, `docs/` and `docs/index.html`, `/index.htm`: each folder's page is scanned once.
    expect(paths(pages)).toEqual(['/', '/docs/', '/about']);
    expect(pages.every((p) => p.ok)).toBe(true);
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const home = pages[0] as ScannedPage;
    const alt = home.axe.violations.find((v) => v.id === 'image-alt')!;
    const lines = fs.readFileSync(path.join(root, 'site/index.html'), 'utf8').split('\n');
    expect((alt.nodes[0] as LocatedNode).source).toEqual({
      path: 'site/index.html',
      line: lines.findIndex((l) => l.startsWith('<img src="logo.png">')) + 1,
      column: 1,
      method: 'static',
    });
    // The run is over: so is the server.
    expect(await answers(origin)).toBe(false);
  }, 180_000);

  test('the folder’s sitemap names production: its pages are scanned at the served address, once each', async () => {
    const { pages, origin } = await served(
      settings({ serve: path.join(root, 'mapped'), screenshots: 'false' }),
    );
    expect(pages.map((p) => p.url)).toEqual([`${origin}/`, `${origin}/about/`]);
    expect(pages.map((p) => (p.ok ? p.title : p.error))).toEqual(['Home', 'About']);
  }, 180_000);

  test('spa: a route that names no file answers index.html; without it, the route is a 404', async () => {
    const app = path.join(root, 'app');
    const routes = { urls: '/settings/profile\n/', screenshots: 'false' };
    const spa = await served(settings({ ...routes, serve: app, spa: 'true' }));
    expect(spa.pages.map((p) => (p.ok ? p.title : p.error))).toEqual(['App /settings/profile', 'App /']);
    const plain = await served(settings({ ...routes, serve: app }));
    expect(plain.pages.map((p) => (p.ok ? p.title : `${p.status}`))).toEqual(['404', 'App /']);
    // Hash routes are pages of their own, each in a new document (one tab scans both, one after the other).
    const hashed = await served({
      ...settings({ urls: '/#/inbox\n/#/settings\n/#/inbox/', serve: app, screenshots: 'false' }),
      concurrency: 1,
    });
    expect(hashed.pages.map((p) => (p.ok ? p.title : p.error))).toEqual(['App /#/inbox', 'App /#/settings']);
  }, 180_000);

  test('a run that fails still stops the server', async () => {
    let origin = '';
    const options = settings({ serve: path.join(root, 'site'), 'urls-file': path.join(root, 'missing.txt') });
    const note = (m: string) => (origin = /at (\S+)\/$/.exec(m)?.[1] ?? origin);
    await expect(scan(options, { planned: () => {}, page: () => {}, note })).rejects.toThrow(PageSourceError);
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await answers(origin)).toBe(false);
  });
});
