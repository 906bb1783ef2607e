import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startHarness } from '../helpers/harness.js';
import { CHROMIUM_PATH, chromium, describeWith } from '../helpers/requirements.js';
import { runNode } from '../scanner/process.js';

// The CLI as a new user runs it, from its sources through tsx: an empty folder, a configuration file, pages
// served on loopback, and no service anywhere. The gate is the committed baseline file.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsx = pathToFileURL(path.join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const main = path.join(root, 'cli', 'main.ts');

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

let cwd: string;
let server: Server;
let base: string;

/** The folder's files on loopback, read afresh on each request (the test edits them between runs). */
beforeAll(async () => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-local-gate-'));
  fs.mkdirSync(path.join(cwd, 'site'));
  server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.replace(/\/$/, '/index.html').slice(1);
    const file = path.join(cwd, 'site', name);
    if (!/^[a-z]+\.html$/.test(name) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

const write = (name: string, text: string) => fs.writeFileSync(path.join(cwd, name), text);
const read = (name: string) => fs.readFileSync(path.join(cwd, name), 'utf8');

function config(ignoreUntil: string): string {
  return [
    'urls:',
    `  - ${base}/`,
    `  - ${base}/news.html`,
    'sourceRoot: site',
    'screenshots: false',
    'concurrency: 2',
    'junit: reports/junit.xml',
    'ignore:',
    '  - selector: "#vendor-badge"',
    '    reason: the vendor fixes its badge in their next release',
    `    until: ${ignoreUntil}`,
    '',
  ].join('\n');
}

const a11yGate = (...args: string[]) =>
  // `node --import tsx cli/main.ts …`, in the user's folder, with nothing of a service in the environment.
  runNode(
    '--import',
    [tsx, main, ...args],
    { PATH: process.env.PATH ?? '', CHROME_PATH: CHROMIUM_PATH },
    cwd,
  );

describeWith(chromium, 'the gate without a service: a configuration file and a committed baseline', () => {
  test('record, fail on a new issue at its path:line, pass when reverted, prune what was fixed, and an ignore past its date counts again', async () => {
    write('site/index.html', page('Home', '<img src="logo.png">\n<img id="vendor-badge" src="badge.png">'));
    write('site/news.html', page('News', '<p>Nothing yet.</p>'));
    write('a11y-gate.config.yaml', config('2999-12-31'));

    // No baseline yet: every violation fails, as pa11y-ci does, and the way out is named.
    const first = await a11yGate('scan');
    expect(first.stdout).toContain('Gate FAILED: 1 new issue (1 ignored).');
    expect(first.stdout).toContain(
      'No scan of main yet: every issue counts as new. Scan main first, or commit a baseline file.\n' +
        'Record the baseline file (.a11y-gate/baseline.json) with "a11y-gate baseline" (the same pages and options) and commit it.\n',
    );
    expect(first.stderr.match(/pages? to scan/g)).toHaveLength(1);
    expect(first.code).toBe(1);

    // The baseline is recorded, and the JUnit file of that run agrees with it: nothing fails.
    const recorded = await a11yGate('baseline');
    expect(recorded.stdout).toContain('Baseline written: 1 issue in .a11y-gate/baseline.json');
    expect(recorded.code).toBe(0);
    expect(read('reports/junit.xml')).toContain('tests="2" failures="0" errors="0"');
    const file = JSON.parse(read('.a11y-gate/baseline.json')) as { issues: Record<string, unknown>[] };
    expect(file.issues).toEqual([
      expect.objectContaining({
        page: '/',
        rule: 'image-alt',
        impact: 'critical',
        selector: 'img[src$="logo.png"]',
        source: 'index.html:7',
      }),
    ]);
    expect((await a11yGate('scan')).code).toBe(0);

    // A change adds a violation: exit 1, the new issue named at its path:line; JUnit fails that page alone.
    write('site/news.html', page('News', '<p>Nothing yet.</p>\n<img src="chart.png">'));
    const changed = await a11yGate('scan');
    expect(changed.stdout).toContain(
      'Gate FAILED: 1 new issue (against .a11y-gate/baseline.json: 1 existing, 0 fixed, 1 ignored).',
    );
    expect(changed.stdout).toMatch(/^1\. .+ \(image-alt\) \[critical\]$/m);
    expect(changed.stdout).toContain(`   at news.html:8 on ${base}/news.html`);
    expect(changed.stdout).toContain('   element: <img src="chart.png">');
    expect(changed.code).toBe(1);
    expect(read('reports/junit.xml')).toContain('tests="2" failures="1" errors="0"');

    // Reverted, and the baseline's own issue fixed too: exit 0, the entry listed as fixed, then pruned.
    write('site/news.html', page('News', '<p>Nothing yet.</p>'));
    write(
      'site/index.html',
      page('Home', '<img src="logo.png" alt="Home">\n<img id="vendor-badge" src="badge.png">'),
    );
    const fixed = await a11yGate('scan', '--prune');
    expect(fixed.stdout).toContain(
      'Gate passed: 0 new issues (against .a11y-gate/baseline.json: 0 existing, 1 fixed, 1 ignored).',
    );
    expect(fixed.stdout).toContain('  - image-alt img[src$="logo.png"] on / (index.html:7)');
    expect(fixed.stdout).toContain('Pruned 1 entry no longer found from .a11y-gate/baseline.json.');
    expect(fixed.code).toBe(0);
    expect(JSON.parse(read('.a11y-gate/baseline.json'))).toEqual({ version: 1, issues: [] });
    const clean = await a11yGate('scan');
    expect(clean.stdout).not.toContain('Fixed');
    expect(clean.code).toBe(0);

    // The ignore's date has passed: the badge's issue counts again.
    write('a11y-gate.config.yaml', config('2020-01-31'));
    const lapsed = await a11yGate('scan');
    expect(lapsed.stdout).toContain('Gate FAILED: 1 new issue');
    expect(lapsed.stdout).toContain(
      'Ignore past its date (until 2020-01-31), no longer applied: #vendor-badge: the vendor fixes its badge in their next release',
    );
    expect(lapsed.stdout).toContain('   element: <img id="vendor-badge" src="badge.png">');
    expect(lapsed.code).toBe(1);
  }, 240_000);

  test('a scan of a urls-file is partial: the entries of the pages it did not scan are neither fixed nor pruned, and recording keeps them', async () => {
    write('site/home.html', page('Home', '<img src="logo.png">'));
    write('site/blog.html', page('Blog', '<img src="chart.png">'));
    write('a11y-gate.config.yaml', 'screenshots: false\nconcurrency: 2\nbaseline: partial/baseline.json\n');
    write('touched.txt', `# the pages this change touched\n${base}/blog.html\n`);
    const pagesOf = () =>
      (
        JSON.parse(read('partial/baseline.json')) as { issues: Array<{ page: string; source?: string }> }
      ).issues
        .map((e) => e.page)
        .sort();
    expect((await a11yGate('baseline', `${base}/home.html`, `${base}/blog.html`)).code).toBe(0);
    expect(pagesOf()).toEqual(['/blog.html', '/home.html']);

    // The blog's issue is fixed; the change's scan covers the blog only.
    write('site/blog.html', page('Blog', '<img src="chart.png" alt="Sales by month">'));
    const partial = await a11yGate('scan', '--urls-file', 'touched.txt', '--prune');
    expect(partial.stdout).toContain(
      'Gate passed: 0 new issues (against partial/baseline.json: 0 existing, 1 fixed, 0 ignored).\n' +
        "Compared 1 of 2 pages: this scan covers only the pages listed; the baseline's issues on the other 1 page count neither as fixed nor as existing.\n" +
        `  - ${base}/blog.html\n`,
    );
    expect(partial.stdout).toContain('Pruned 1 entry no longer found from partial/baseline.json.');
    expect(pagesOf()).toEqual(['/home.html']);

    // Recording from a partial scan keeps the entries of the pages it did not scan.
    write('site/blog.html', page('Blog', '<img src="chart.png" alt="Sales by month">\n<img src="team.png">'));
    const recorded = await a11yGate('scan', '--urls-file', 'touched.txt', '--update-baseline');
    expect(recorded.stdout).toContain(
      'Baseline written: 2 issues in partial/baseline.json (1 not in it before, 0 no longer found and removed, 1 of pages not scanned kept).',
    );
    expect(pagesOf()).toEqual(['/blog.html', '/home.html']);
  }, 240_000);

  test('a wrong key in the configuration file is named with the file, and the help is pointed to, not printed', async () => {
    write('a11y-gate.config.yaml', `urls: ["${base}/"]\nwaitUntil: whenever\n`);
    const run = await a11yGate('scan');
    expect(run.stderr).toBe(
      'a11y-gate: a11y-gate.config.yaml: "waitUntil" must be one of load, domcontentloaded, networkidle, commit, got "whenever"\n' +
        'Run "a11y-gate --help" for the options.\n',
    );
    expect(run.code).toBe(2);
  }, 60_000);
});

test('with a service, a key it refuses is told before the scan starts', async () => {
  const h = await startHarness({ db: 'sqlite' });
  try {
    // No browser and no page here: the key is asked about first, so neither is reached.
    const run = await runNode(
      '--import',
      [tsx, main, 'scan', 'http://127.0.0.1:9/', '--api-url', h.url, '--api-key', 'a11y_wrong'],
      { PATH: process.env.PATH ?? '', CHROME_PATH: '/nonexistent/chromium' },
      fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-key-')),
    );
    expect(run.stderr).toMatch(
      /^a11y-gate: the service refused the API key \(--api-key or A11Y_GATE_API_KEY\)/m,
    );
    expect(run.stderr).not.toContain('Scanning');
    expect(run.code).toBe(2);
  } finally {
    await h.close();
  }
}, 60_000);
