import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { axeViolations, launch } from '../console/browser.js';
import { CHROMIUM_PATH, chromium, describeWith } from '../helpers/requirements.js';
import { run } from './run.js';

/*
 * The CLI package as a user gets it: `npm pack` of packages/cli (its prepack builds the bundle), the tarball
 * installed into an empty folder with npm offline and no reachable registry, then `npx a11y-gate`.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkgDir = path.join(root, 'packages', 'cli');
const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
};

let work: string;
let tarball: string;
let scratch: string;
// npm offline, and any request it tried anyway would go to a closed port; none of the settings of the npm that
// started the tests.
const npmEnv = () => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
  npm_config_offline: 'true',
  npm_config_registry: 'http://127.0.0.1:9/',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
});

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-cli-pack-'));
  const pack = await run('npm', ['pack', '--pack-destination', work], pkgDir, npmEnv());
  if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  tarball = path.join(work, `a11y-gate-cli-${manifest.version}.tgz`);
  scratch = path.join(work, 'scratch');
  fs.mkdirSync(scratch);
  const install = await run('npm', ['install', '--offline', tarball], scratch, npmEnv());
  if (install.code !== 0) throw new Error(`npm install of the tarball failed:\n${install.stderr}`);
}, 900_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test('the tarball holds the bundle and its two runtime packages, nothing of the service', async () => {
  const list = await run('tar', ['-tzf', tarball], work, process.env);
  const files = list.stdout.trim().split('\n');
  expect(files).toEqual(expect.arrayContaining(['package/package.json', 'package/dist/index.js']));
  const outside = files.filter(
    (f) =>
      !/^package\/(package\.json|README\.md|dist\/[^/]+|node_modules\/(playwright-core|axe-core)\/.+)$/.test(
        f,
      ),
  );
  expect(outside).toEqual([]);
  expect(Object.keys(manifest.dependencies).sort()).toEqual(['axe-core', 'playwright-core']);
  // Installed: the package alone at the top, its two packages inside it.
  const top = fs.readdirSync(path.join(scratch, 'node_modules')).filter((n) => !n.startsWith('.'));
  expect(top).toEqual(['@a11y-gate']);
  const inside = fs.readdirSync(path.join(scratch, 'node_modules', '@a11y-gate', 'cli', 'node_modules'));
  expect(inside.filter((n) => !n.startsWith('.')).sort()).toEqual(['axe-core', 'playwright-core']);
  const bundle = fs.readFileSync(
    path.join(scratch, 'node_modules', '@a11y-gate', 'cli', 'dist', 'index.js'),
    'utf8',
  );
  expect(bundle).not.toMatch(/from ["'](express|knex|probot|pg|sqlite3)["']/);
});

test('npx a11y-gate --version prints the package version; --help the usage', async () => {
  const version = await run('npx', ['--offline', 'a11y-gate', '--version'], scratch, npmEnv());
  expect(version.stderr).toBe('');
  expect(version.stdout).toBe(`${manifest.version}\n`);
  expect(version.code).toBe(0);
  const help = await run('npx', ['--offline', 'a11y-gate', '--help'], scratch, npmEnv());
  expect(help.stdout).toMatch(/^Usage: a11y-gate scan <url\.\.\.> \[options\]/);
  const wrong = await run('npx', ['--offline', 'a11y-gate', 'scna'], scratch, npmEnv());
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toContain('unknown command "scna"');
}, 60_000);

test("the repository's own bundle (dist/cli, the root package's bin) prints the repository's version", async () => {
  const rootVersion = (
    JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }
  ).version;
  const out = await run(
    process.execPath,
    [path.join(root, 'dist', 'cli', 'index.js'), '--version'],
    work,
    {},
  );
  expect(out.stdout).toBe(`${rootVersion}\n`);
  // One version for the repository and the package: a release sets both (docs/release.md).
  expect(manifest.version).toBe(rootVersion);
});

/** A page of the shop's built folder: the markup a line at a time, so a finding's line is known. */
const shopPage = (title: string, ...body: string[]) =>
  [
    '<!doctype html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>${title}</title></head>`,
    '<body>',
    '<main>',
    `<h1>${title}</h1>`,
    ...body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');

const HOME = shopPage(
  'Shop',
  '<img src="logo.png">',
  '<p><a href="about.html">About us</a></p>',
  '<p style="color:#999;background:#aaa">Free delivery</p>',
);
const ABOUT = shopPage('About', '<p>We sell tea.</p>', '<button></button>');
// The pull request's change: a field without a label, on line 8 of the file.
const ABOUT_CHANGED = shopPage('About', '<p>We sell tea.</p>', '<input type="text">', '<button></button>');
// The change reverted, and the button given its name.
const ABOUT_FIXED = shopPage('About', '<p>We sell tea.</p>', '<button>Order</button>');

interface BaselineFile {
  version: number;
  issues: Array<{ page: string; rule: string; source?: string }>;
}

describeWith(
  chromium,
  'the installed package alone: a folder of pages gated against a committed baseline file',
  () => {
    // The user's repository: a configuration file and a built folder, nothing listening anywhere.
    let repo: string;
    const config = (until: string) =>
      fs.writeFileSync(
        path.join(repo, 'a11y-gate.config.json'),
        JSON.stringify({
          serve: 'site',
          chromePath: CHROMIUM_PATH,
          ignore: [{ rule: 'color-contrast', reason: 'the brand colours change next quarter', until }],
        }),
      );
    const page = (file: string, html: string) => fs.writeFileSync(path.join(repo, 'site', file), html);
    const a11yGate = (...args: string[]) =>
      run('npx', ['--offline', 'a11y-gate', ...args], repo, { ...npmEnv(), CI: 'true' });
    const baselineFile = () =>
      JSON.parse(fs.readFileSync(path.join(repo, '.a11y-gate', 'baseline.json'), 'utf8')) as BaselineFile;

    beforeAll(() => {
      // Inside the folder the package was installed in, as a project that has it as a dependency.
      repo = path.join(scratch, 'shop');
      fs.mkdirSync(path.join(repo, 'site'), { recursive: true });
      page('index.html', HOME);
      page('about.html', ABOUT);
    });

    test('no baseline yet (exit 1), the baseline recorded, a change that adds a violation (exit 1 at its path:line), a lapsed ignore counting again, the revert pruned (exit 0), the HTML report clean in Chromium', async () => {
      config('2999-12-31');
      // No service and no baseline file: every violation fails the run, as pa11y-ci's would.
      const first = await a11yGate('scan', '--junit', 'junit.xml', '--out', 'raw');
      expect(first.stderr).toMatch(/^Serving .*site at http:\/\/127\.0\.0\.1:\d+\/$/m);
      expect(first.stdout).toMatch(
        new RegExp(
          `^Scanned 2 of 2 pages in [\\d.]+ s: 3 violations \\(axe-core ${manifest.dependencies['axe-core']}\\)$`,
          'm',
        ),
      );
      expect(first.stdout).toContain('Gate FAILED: 2 new issues (1 ignored).');
      expect(first.stdout).toContain(
        'Record the baseline file (.a11y-gate/baseline.json) with "a11y-gate baseline" (the same pages and options) and commit it.',
      );
      expect(first.code).toBe(1);
      expect(fs.readFileSync(path.join(repo, 'junit.xml'), 'utf8')).toContain('tests="2" failures="2"');
      expect(fs.readdirSync(path.join(repo, 'raw'))).toEqual(['001-index.json', '002-about-html.json']);

      const recorded = await a11yGate('baseline', '--junit', 'junit.xml');
      // The contrast issue is ignored, so it is left out of the file.
      expect(recorded.stdout).toContain('Baseline written: 2 issues in .a11y-gate/baseline.json');
      expect(recorded.stdout).toContain(', 1 ignored)');
      expect(recorded.code).toBe(0);
      // The run that records the baseline fails no page.
      expect(fs.readFileSync(path.join(repo, 'junit.xml'), 'utf8')).toContain('tests="2" failures="0"');
      const before = baselineFile();
      expect(before.issues.map((e) => `${e.page} ${e.rule} ${e.source}`)).toEqual([
        '/ image-alt site/index.html:7',
        '/about.html button-name site/about.html:8',
      ]);

      // The pull request: a field without a label; and the ignore's date has passed.
      page('about.html', ABOUT_CHANGED);
      config('2020-01-31');
      const changed = await a11yGate('scan', '--html', 'report.html');
      expect(changed.stdout).toContain(
        'Gate FAILED: 2 new issues (against .a11y-gate/baseline.json: 2 existing, 0 fixed, 0 ignored).',
      );
      expect(changed.stdout).toContain(
        '  - Ignore past its date (until 2020-01-31), no longer applied: color-contrast: the brand colours change next quarter',
      );
      // Each new issue named at its path:line, the field first (critical), then the contrast (serious).
      expect(changed.stdout).toMatch(
        /^1\. .+ \(label\) \[critical\]\n {3}at site\/about\.html:8 on http:\/\/127\.0\.0\.1:\d+\/about\.html$/m,
      );
      expect(changed.stdout).toMatch(
        /^2\. .+ \(color-contrast\) \[serious\]\n {3}at site\/index\.html:9 on http:\/\/127\.0\.0\.1:\d+\/$/m,
      );
      // The pages to scan again, by their path in the folder: the port they were served at is gone.
      expect(changed.stdout).toContain(
        'Reproduce locally: npx a11y-gate scan /about.html / --serve site --source-root .\n',
      );
      expect(changed.code).toBe(1);
      // Judging never writes the file.
      expect(baselineFile()).toEqual(before);

      // The change reverted, the button named (its entry is fixed), the ignore's date moved: --prune drops
      // the fixed entry, and the file holds exactly what is still found.
      page('about.html', ABOUT_FIXED);
      config('2999-12-31');
      const reverted = await a11yGate('scan', '--prune');
      expect(reverted.stdout).toContain(
        'Gate passed: 0 new issues (against .a11y-gate/baseline.json: 1 existing, 1 fixed, 1 ignored).',
      );
      expect(reverted.stdout).toContain('Pruned 1 entry no longer found from .a11y-gate/baseline.json.');
      expect(reverted.code).toBe(0);
      expect(baselineFile()).toEqual({ ...before, issues: [before.issues[0]] });

      // The report of the failed run, opened from its file in Chromium: the new issues, and no violation.
      const browser = await launch();
      try {
        const p = await browser.newPage();
        await p.goto(pathToFileURL(path.join(repo, 'report.html')).href);
        expect(await p.locator('.verdict').innerText()).toBe('failed Gate FAILED: 2 new issues');
        expect(await p.locator('#s-new .issue').first().innerText()).toContain('site/about.html:8');
        expect(await axeViolations(p)).toEqual([]);
      } finally {
        await browser.close();
      }
    }, 300_000);
  },
);
