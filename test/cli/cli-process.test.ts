import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_PATH } from '../helpers/axe-browser.js';
import { chromium, describeWith } from '../helpers/requirements.js';
import type { DeployEvent, ScanList } from '../helpers/api-types.js';
import { buildCheckRun } from '../../app/check-run-payload.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { runNode } from '../scanner/process.js';
import { startSite, type Site } from '../scanner/site.js';

// The bundled CLI (dist/cli/index.js) as another CI system runs it: a process, its exit code, its files.
const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli', 'index.js');

let h: Harness;
let site: Site;
let key: string;
beforeAll(async () => {
  [h, site] = await Promise.all([startHarness({ db: 'sqlite' }), startSite()]);
  key = await h.createKey({ name: 'ci', scopes: ['ingest', 'gate', 'read'] });
});
afterAll(async () => {
  await Promise.all([h?.close(), site?.close()]);
});

const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-cli-'));
const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '',
  CHROME_PATH: CHROMIUM_PATH,
  A11Y_GATE_RETRY_DELAY_MS: '5',
  ...extra,
});

test('usage mistakes exit 2 and say what is wrong, before any browser starts', async () => {
  const none = await runNode(cli, ['scan'], env(), dir());
  expect(none.code).toBe(2);
  expect(none.stderr).toContain('give at least one URL, --sitemap');
  const gate = await runNode(cli, ['scan', 'https://a.test/', '--gate'], env(), dir());
  expect(gate.code).toBe(2);
  expect(gate.stderr).toContain('--gate needs --api-url');
  const typo = await runNode(cli, ['scan', 'https://a.test/', '--crawl', 'ten'], env(), dir());
  expect(typo.stderr).toContain('--crawl must be an integer');
});

describeWith(chromium, 'a11y-gate scan', () => {
  test('gate failed: exit 1 with a JUnit report; the key from A11Y_GATE_API_KEY; the gate asked about the sha', async () => {
    const cwd = dir();
    const sha = '9999999999999999999999999999999999999999';
    const args = ['scan', `${site.url}/a`, `${site.url}/d`, '--api-url', h.url, '--site-id', 'cli-site'];
    const run = await runNode(
      cli,
      // Bare switches, as the usage shows them: --fail-on-critical does not take --junit as its value.
      [...args, '--sha', sha, '--gate', '--fail-on-critical', '--junit', 'junit.xml', '--out', 'raw'],
      env({ A11Y_GATE_API_KEY: key }),
      cwd,
    );
    expect(run.stderr).toMatch(/^\[1\/2\] ok /m); // one line per page when stderr is not a terminal
    expect(run.stdout).toMatch(/^Gate FAILED: \d+ new issues\./m);
    // No scan of the base branch to compare with: the verdict says so, and what to do.
    expect(run.stdout).toContain(
      'No scan of main yet: every issue counts as new. Scan main first, or commit a baseline file.',
    );
    // The new issues themselves, in plain words, and how to scan the failing pages again.
    expect(run.stdout).toMatch(
      /^1\. .+ \((image-alt|button-name|color-contrast|[a-z-]+)\) \[(critical|serious|moderate|minor)\]$/m,
    );
    expect(run.stdout).toMatch(/^ {3}at \(not located\) on http:\/\/127\.0\.0\.1:\d+\/[ad]$/m);
    expect(run.stdout).toContain(
      `Reproduce locally: npx a11y-gate scan ${site.url}/a ${site.url}/d --source-root .`,
    );
    expect(run.code).toBe(1);
    const junit = fs.readFileSync(path.join(cwd, 'junit.xml'), 'utf8');
    expect(junit).toContain('<testsuite name="accessibility (axe-core)" tests="2" failures="2" errors="0"');
    expect(junit).toMatch(/<failure message="\d+ new accessibility violations \([^"]*image-alt/);
    expect(fs.readdirSync(path.join(cwd, 'raw')).sort()).toEqual(['001-a.json', '002-d.json']);
    const scans = await h.request<ScanList>('GET', `/api/v1/scans?siteId=cli-site&sha=${sha}`, { key });
    expect(scans.body.data).toHaveLength(1);

    const pass = await runNode(
      cli,
      [...args, '--sha', sha, '--gate', '--fail-on-critical', 'false', '--api-key', key],
      env(),
      cwd,
    );
    expect(pass.stdout).toMatch(/^Gate passed: /m);
    expect(pass.code).toBe(0);
  }, 120_000);

  test('a served folder with a service: the check run names its pages by path with --serve, never the port', async () => {
    const cwd = dir();
    fs.mkdirSync(path.join(cwd, 'site'));
    fs.writeFileSync(
      path.join(cwd, 'site', 'index.html'),
      '<!doctype html><html lang="en"><title>Home</title><main><img src="a.png"></main></html>\n',
    );
    const sha = '3'.repeat(40);
    const scan = ['scan', '/', '--serve', 'site', '--no-screenshots', '--api-url', h.url, '--api-key', key];
    const run = await runNode(cli, [...scan, '--site-id', 'served-site', '--sha', sha, '--gate'], env(), cwd);
    expect(run.stdout).toContain('Reproduce locally: npx a11y-gate scan / --serve site --source-root .\n');
    expect(run.code).toBe(1);
    // The service kept the folder with the scan: the deploy event and the check run the App posts from it.
    const gate = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key,
      body: { siteId: 'served-site', sha },
    });
    expect(gate.body.served).toEqual({ dir: 'site', spa: false });
    const text = buildCheckRun(gate.body, { detailsUrl: 'https://a11y.example/d' }).output.text;
    expect(text).toContain('npx a11y-gate scan / --serve site --source-root .\n');
    expect(text).not.toMatch(/scan http:\/\/127\.0\.0\.1/);
  }, 120_000);

  test('with a gate, JUnit fails a page only for its new issues: those of the baseline are reported, not failed', async () => {
    const cwd = dir();
    const args = ['scan', `${site.url}/a`, `${site.url}/d`, '--api-url', h.url, '--site-id', 'junit-site'];
    const base = await runNode(
      cli,
      [...args, '--sha', '1'.repeat(40), '--branch', 'main', '--api-key', key, '--gate', '--junit', 'b.xml'],
      env(),
      cwd,
    );
    expect(base.stdout).toMatch(/^Gate passed: baseline recorded\./m);
    expect(base.code).toBe(0);
    // The run that records the baseline: JUnit agrees with the gate, and fails no page.
    expect(fs.readFileSync(path.join(cwd, 'b.xml'), 'utf8')).toContain('tests="2" failures="0" errors="0"');
    const head = await runNode(
      cli,
      [
        ...args,
        '--sha',
        '2'.repeat(40),
        '--branch',
        'feature',
        '--gate',
        '--api-key',
        key,
        '--junit',
        'j.xml',
      ],
      env(),
      cwd,
    );
    expect(head.stdout).toMatch(/^Gate passed: 0 new issues\./m);
    const junit = fs.readFileSync(path.join(cwd, 'j.xml'), 'utf8');
    expect(junit).toContain('tests="2" failures="0" errors="0"');
    expect(junit).toMatch(
      /<system-out>\d+ existing violations \(in the baseline, not failed\)<\/system-out>/,
    );
    // Without a service or a baseline file: every page with violations fails, and so does the run.
    const plain = await runNode(cli, ['scan', `${site.url}/a`, '--junit', 'p.xml'], env(), cwd);
    expect(plain.code).toBe(1);
    expect(fs.readFileSync(path.join(cwd, 'p.xml'), 'utf8')).toContain('tests="1" failures="1"');
  }, 120_000);

  test('a page that times out is reported; a run where every page fails exits 2', async () => {
    const cwd = dir();
    const run = await runNode(
      cli,
      ['scan', `${site.url}/slow`, '--timeout', '3', '--junit', 'j.xml'],
      env(),
      cwd,
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`not scanned: ${site.url}/slow: timed out after 3 s`);
    expect(run.stderr).toContain('Every page failed (1)');
    expect(fs.readFileSync(path.join(cwd, 'j.xml'), 'utf8')).toContain(
      '<error message="timed out after 3 s"/>',
    );
  }, 60_000);
});
