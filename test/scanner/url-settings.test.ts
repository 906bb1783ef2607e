import fs from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { baselineText, entryOf, type BaselineEntry } from '../../scanner/baseline-file.js';
import { findingsOf } from '../../scanner/findings.js';
import { toJunit } from '../../scanner/junit.js';
import { judgeLocally } from '../../scanner/local-gate.js';
import { defaultScanOptions, type ScanOptions, type UrlSettings } from '../../scanner/options.js';
import type { ScannedPage } from '../../scanner/page-scan.js';
import { fingerprintOf, toSarif } from '../../scanner/sarif.js';
import { scan } from '../../scanner/scan.js';
import { submittedPages } from '../../scanner/scan-body.js';
import { pagePlanner } from '../../scanner/url-settings.js';
import { parseViewports } from '../../scanner/viewports.js';
import { CHROMIUM_PATH } from '../helpers/axe-browser.js';
import { chromium, describeWith } from '../helpers/requirements.js';

// Per-URL settings and viewports: real pages on loopback, scanned in Debian's Chromium.

const doc = (title: string, head: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
  `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>${head}</head>` +
  `<body><main><h1>${title}</h1>${body}</main></body></html>`;

const PAGES: Record<string, string> = {
  // The menu button has no name, and only a narrow screen shows it; the image lacks alt at every width.
  '/shop': doc(
    'Shop',
    '<style>.menu{display:none}@media (max-width: 600px){.menu{display:block}}</style>',
    '<button class="menu"><svg width="20" height="20" aria-hidden="true"></svg></button>' +
      '<img src="/hero.png" width="200" height="50">',
  ),
  // Renders late: its unlabelled field exists only once the script ran.
  '/app/home': doc(
    'App',
    '',
    '<div id="root"></div><script>setTimeout(() => { document.getElementById("root").innerHTML = ' +
      '\'<form id="late"><input type="text"></form>\'; }, 1000);</script>',
  ),
  '/docs/intro': doc('Docs', '', '<p>Read me.</p>'),
  '/account': doc('Account', '', '<p>Signed in.</p>'),
  '/login': doc('Sign in', '', '<form><label>User <input name="user"></label></form>'),
};

interface Site {
  url: string;
  seen: { path: string; headers: IncomingHttpHeaders }[];
  server: Server;
}

async function startSite(): Promise<Site> {
  const seen: Site['seen'] = [];
  const server = createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push({ path: p, headers: req.headers });
    if (p === '/account' && !/(^|;\s*)session=ok(;|$)/.test(req.headers.cookie ?? '')) {
      res.writeHead(302, { location: '/login' }).end();
      return;
    }
    const html = PAGES[p];
    if (!html) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const viewports = (...names: string[]) => parseViewports(names, (p) => new Error(p));
const settings = (s: Partial<UrlSettings> & { url: string }): UrlSettings => ({
  waitFor: null,
  headers: {},
  loginScript: null,
  viewports: null,
  ...s,
});

describe('per-URL settings: which page gets what', () => {
  test('the first matching entry wins; headers merge over the run’s; what an entry leaves out is the run’s', () => {
    const plan = pagePlanner({
      waitFor: 'main',
      headers: { 'x-run': '1', 'x-both': 'run' },
      loginScript: '/run-login.mjs',
      viewports: viewports('1280x720', '390x844'),
      urlSettings: [
        settings({
          url: '/app/**',
          waitFor: '#late',
          headers: { 'x-both': 'app' },
          viewports: viewports('iPhone 13'),
        }),
        settings({ url: '/app/admin', loginScript: '/admin-login.mjs' }),
        settings({ url: 'https://other.example/**', waitFor: '#other' }),
      ],
    });
    const app = plan('https://shop.example/app/admin?tab=1');
    expect(app.waitFor).toBe('#late');
    expect(app.sessions).toEqual([
      {
        headers: { 'x-run': '1', 'x-both': 'app' },
        loginScript: '/run-login.mjs',
        viewport: expect.objectContaining({ name: 'iPhone 13' }) as unknown,
      },
    ]);
    const other = plan('https://shop.example/docs');
    expect(other.waitFor).toBe('main');
    expect(other.sessions.map((s) => [s.viewport?.name, s.headers, s.loginScript])).toEqual([
      ['1280x720', { 'x-run': '1', 'x-both': 'run' }, '/run-login.mjs'],
      ['390x844', { 'x-run': '1', 'x-both': 'run' }, '/run-login.mjs'],
    ]);
    // No viewport anywhere: one session at the browser's default, which names none.
    const plain = pagePlanner({ ...defaultScanOptions(), urlSettings: [] })('https://shop.example/');
    expect(plain.sessions).toEqual([{ headers: {}, loginScript: null, viewport: null }]);
  });
});

describeWith(chromium, 'viewports and per-URL settings in Chromium', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    site.server.closeAllConnections();
    await new Promise((resolve) => site.server.close(resolve));
  });

  const options = (o: Partial<ScanOptions>): ScanOptions => ({
    ...defaultScanOptions(),
    chromePath: CHROMIUM_PATH,
    concurrency: 2,
    screenshots: { ...defaultScanOptions().screenshots, enabled: false },
    ...o,
  });
  const rules = (p: ScannedPage) => p.axe.violations.map((v) => v.id).sort();

  test('a page at two viewports: the narrow-only issue is found at the narrow one, and each viewport is its own identity', async () => {
    const run = await scan(
      options({ urls: [`${site.url}/shop`], viewports: viewports('390x844', '1280x720') }),
    );
    const pages = run.pages as ScannedPage[];
    expect(pages.map((p) => [p.viewport, p.ok])).toEqual([
      ['390x844', true],
      ['1280x720', true],
    ]);
    expect(rules(pages[0])).toEqual(['button-name', 'image-alt']);
    expect(rules(pages[1])).toEqual(['image-alt']);

    const findings = findingsOf(run.pages).filter((f) => f.kind === 'violation');
    const entries = JSON.parse(baselineText(findings.map(entryOf))) as { issues: BaselineEntry[] };
    expect(entries.issues.map((e) => [e.page, e.viewport, e.rule])).toEqual([
      ['/shop', '1280x720', 'image-alt'],
      ['/shop', '390x844', 'button-name'],
      ['/shop', '390x844', 'image-alt'],
    ]);
    // The same image at two widths: two identities, neither the one it had without a viewport.
    const images = entries.issues.filter((e) => e.rule === 'image-alt').map((e) => e.fingerprint);
    expect(new Set(images).size).toBe(2);
    const plain = findingsOf((await scan(options({ urls: [`${site.url}/shop`] }))).pages);
    expect(plain.map((f) => [f.rule, f.viewport])).toEqual([['image-alt', undefined]]);
    expect(images).not.toContain(fingerprintOf(plain[0]));

    // Against that baseline the same scan is all existing; without the wide viewport's entry, its image is new.
    const again = judgeLocally(
      findings,
      entries.issues,
      { failOnCritical: null, failOnSerious: null, maxNewIssues: null, ignores: [] },
      new Date(),
    );
    expect(again.evaluation.counts).toMatchObject({ new: 0, existing: 3, fixed: 0 });
    const narrowOnly = entries.issues.filter((e) => e.viewport === '390x844');
    const wider = judgeLocally(
      findings,
      narrowOnly,
      { failOnCritical: null, failOnSerious: null, maxNewIssues: null, ignores: [] },
      new Date(),
    );
    expect(wider.newFindings.map((f) => [f.rule, f.viewport])).toEqual([['image-alt', '1280x720']]);

    // Reports and the scan body name the viewport.
    const junit = toJunit(run.pages, findings, 1);
    expect(junit).toContain(`name="${site.url}/shop (390x844)"><failure message="2 accessibility violations`);
    expect(junit).toContain(
      `name="${site.url}/shop (1280x720)"><failure message="1 accessibility violations`,
    );
    const withSource = findings.map((f) => ({
      ...f,
      source: { path: 'shop.html', line: 3, column: null, method: 'static' as const },
    }));
    const sarif = toSarif(withSource, { toolVersion: run.engine.version }).log.runs[0].results ?? [];
    expect(sarif.map((r) => [r.ruleId, r.properties?.viewport as unknown])).toEqual([
      ['button-name', '390x844'],
      ['image-alt', '390x844'],
      ['image-alt', '1280x720'],
    ]);
    expect(sarif[2].message.text).toContain(`Page: ${site.url}/shop (1280x720)`);
    expect(submittedPages(run).map((p) => [p.url, p.viewport])).toEqual([
      [`${site.url}/shop`, '390x844'],
      [`${site.url}/shop`, '1280x720'],
    ]);
  }, 180_000);

  test('a device scans with its profile: mobile user agent, touch, its viewport', async () => {
    const run = await scan(options({ urls: [`${site.url}/shop`], viewports: viewports('iPhone 13') }));
    expect(run.pages[0]).toMatchObject({ ok: true, viewport: 'iPhone 13' });
    expect(rules(run.pages[0] as ScannedPage)).toEqual(['button-name', 'image-alt']);
    expect(site.seen.filter((s) => s.path === '/shop').at(-1)?.headers['user-agent']).toMatch(/iPhone/);
  }, 120_000);

  test('per-URL wait-for, headers and login script reach the matching pages only', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-login-'));
    const login = path.join(dir, 'login.mjs');
    fs.writeFileSync(
      login,
      `export default async (page, context) => { await context.addCookies([{ name: 'session', value: 'ok', url: '${site.url}/' }]); };\n`,
    );
    site.seen.length = 0;
    const run = await scan(
      options({
        urls: [`${site.url}/app/home`, `${site.url}/docs/intro`, `${site.url}/account`, `${site.url}/shop`],
        headers: { 'x-run': 'all' },
        loginUrl: '/login',
        urlSettings: [
          settings({
            url: '/app/**',
            waitFor: '#late',
            headers: { 'x-preview': 'app' },
            viewports: viewports('390x844'),
          }),
          settings({ url: '/account', loginScript: login }),
          settings({ url: '/shop', waitFor: '#absent' }),
          // Never reached for /app/home: the first matching entry wins.
          settings({ url: '/app/*', waitFor: '#never' }),
        ],
      }),
    );
    expect(run.pages.map((p) => [new URL(p.url).pathname, p.viewport, p.ok])).toEqual([
      ['/app/home', '390x844', true],
      ['/docs/intro', undefined, true],
      ['/account', undefined, true],
      ['/shop', undefined, false],
    ]);
    // Waiting for an element it never shows, /shop ran out of time (the wait and the page share the deadline).
    expect(run.pages[3]).toMatchObject({
      error: expect.stringMatching(/^("#absent" did not appear within|timed out after) 30 s$/) as string,
    });
    // Waited for the late form, so its unlabelled field was there to find; the docs page waited for nothing.
    expect(rules(run.pages[0] as ScannedPage)).toContain('label');
    const headersOf = (p: string) => site.seen.find((s) => s.path === p)?.headers ?? {};
    expect(headersOf('/app/home')).toMatchObject({ 'x-run': 'all', 'x-preview': 'app' });
    expect(headersOf('/docs/intro')['x-run']).toBe('all');
    expect(headersOf('/docs/intro')['x-preview']).toBeUndefined();
    expect(headersOf('/account')['x-preview']).toBeUndefined();
    // Only the account page's session ran the login script: the others were never signed in.
    expect(headersOf('/account').cookie).toBe('session=ok');
    expect(headersOf('/docs/intro').cookie).toBeUndefined();
  }, 180_000);
});
