import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_PATH, chromium, describeWith } from '../helpers/requirements.js';
import { runNode } from '../scanner/process.js';
import { axeViolations, launch, tabTo } from '../console/browser.js';

// The report a user opens: the CLI from its sources scans a page served on loopback against a baseline
// recorded before a change, writes the HTML report, and Chromium opens the file with every request watched.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsx = pathToFileURL(path.join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const main = path.join(root, 'cli', 'main.ts');

const page = (title: string, body: string) =>
  `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${title}</title></head>\n` +
  `<body>\n<main>\n<h1>Shop</h1>\n${body}\n</main>\n</body>\n</html>\n`;

let cwd: string;
let server: Server;
let base: string;
let browser: Browser;

beforeAll(async () => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-html-report-'));
  fs.mkdirSync(path.join(cwd, 'site'));
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(fs.readFileSync(path.join(cwd, 'site', 'index.html')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const a11yGate = (env: Record<string, string>, ...args: string[]) =>
  runNode(
    '--import',
    [tsx, main, ...args],
    { PATH: process.env.PATH ?? '', CHROME_PATH: CHROMIUM_PATH, ...env },
    cwd,
  );

const visible = (p: Page, selector: string) => p.locator(`${selector}:visible`).allTextContents();

describeWith(chromium, 'the HTML report in Chromium', () => {
  test('new, existing and fixed from a real scan; a file that loads nothing, with no axe violation, whose filters work from the keyboard', async () => {
    fs.writeFileSync(
      path.join(cwd, 'a11y-gate.config.yaml'),
      `urls: ['${base}/']\nsourceRoot: site\nconcurrency: 1\nhtml: reports/a11y.html\n`,
    );
    const img = '<img src="logo.png">';
    const contrast = '<p style="color:#999;background:#aaa">Low contrast</p>';
    fs.writeFileSync(
      path.join(cwd, 'site', 'index.html'),
      page('Shop', `${img}\n<button></button>\n${contrast}`),
    );
    expect((await a11yGate({}, 'baseline')).code).toBe(0);
    // The change: the button gets its name (fixed), a field without a label comes (new), the rest stays.
    fs.writeFileSync(
      path.join(cwd, 'site', 'index.html'),
      page(
        'Shop &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;',
        `${img}\n<button>Buy</button>\n${contrast}\n<input type="text">`,
      ),
    );
    const run = await a11yGate({ CI: 'true' }, 'scan', '--open');
    expect(run.code).toBe(1);
    const file = path.join(cwd, 'reports', 'a11y.html');
    expect(run.stderr).toContain('HTML report: reports/a11y.html');
    expect(run.stderr).toContain(`No display to open the HTML report in: open ${file} in a browser.`);

    browser = await launch();
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const url = pathToFileURL(file).href;
    const requests: string[] = [];
    // Every request is seen, and any but the file itself is refused.
    await context.route('**/*', (route) => {
      requests.push(route.request().url());
      return route.request().url() === url ? route.continue() : route.abort();
    });
    const p = await context.newPage();
    const refused: string[] = [];
    p.on('console', (m) => refused.push(m.text()));
    await p.goto(url);
    expect(await p.locator('.verdict').innerText()).toBe('failed Gate FAILED: 1 new issue');
    expect(await p.locator('h3').allTextContents()).toEqual([
      'Pages',
      'Filter the issues',
      'New issues (1)',
      'Existing issues (2)',
      'Fixed: in the baseline, no longer found (1)',
    ]);
    expect(await p.locator('#s-new .issue h5').allTextContents()).toEqual(['Form elements must have labels']);
    expect(await p.locator('#s-new .issue').innerText()).toContain('index.html:10');
    expect(await p.locator('#s-fixed .issue').innerText()).toContain('button-name');
    expect(await p.locator('.issue img.shot').count()).toBeGreaterThan(0);
    expect(await p.locator('ul.pages').innerText()).toContain('(Shop </title><script>alert(1)</script>)');
    expect(await p.locator('script').count()).toBe(0);
    // The inline stylesheet ran under the file's policy: the filters it shows are there, nothing was refused.
    expect(await p.locator('.filters').isVisible()).toBe(true);
    expect(refused).toEqual([]);

    for (const scheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(p, scheme === 'dark')).toEqual([]);
      await p.screenshot({ path: path.join(cwd, `report-${scheme}.png`), fullPage: true });
    }
    await p.setViewportSize({ width: 320, height: 800 });
    expect(await axeViolations(p)).toEqual([]);
    await p.screenshot({ path: path.join(cwd, 'report-320.png'), fullPage: true });
    await p.setViewportSize({ width: 1000, height: 900 });

    // One rule: only its issue stays, and sections with none of it go.
    await tabTo(p, '#f-rule');
    await p.selectOption('#f-rule', { label: 'label' });
    expect(await visible(p, '.issue h5')).toEqual(['Form elements must have labels']);
    expect(await visible(p, '.status h3')).toEqual(['New issues (1)']);
    // Back to every rule; serious unchecked with the space bar: the contrast issue goes.
    await p.selectOption('#f-rule', { label: 'All rules (4)' });
    await tabTo(p, '#f-impact-serious');
    await p.keyboard.press('Space');
    const shown = await visible(p, '.issue code');
    expect(shown).toEqual(expect.arrayContaining(['label', 'image-alt', 'button-name']));
    expect(shown).not.toContain('color-contrast');
    await tabTo(p, '#f-impact-critical');
    await p.keyboard.press('Space');
    expect(await visible(p, '.issue')).toEqual([]);
    expect(await visible(p, '.no-match')).toEqual(['No issue matches the filters.']);
    await p.screenshot({ path: path.join(cwd, 'report-filtered.png'), fullPage: true });

    expect(requests).toEqual([url]);
  }, 240_000);
});
