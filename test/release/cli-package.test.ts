import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
}, 240_000);

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

const PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>' +
  '<body><main><h1>Shop</h1><img src="/cart.png"><p>Welcome</p></main></body></html>';

describeWith(chromium, 'the installed package scans a loopback page in Chromium', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('npx a11y-gate scan: the violation found, a JUnit report written; without a service, the baseline file is the gate', async () => {
    const args = [
      '--offline',
      'a11y-gate',
      'scan',
      url,
      '--chrome-path',
      CHROMIUM_PATH,
      '--junit',
      'junit.xml',
    ];
    const scan = await run('npx', [...args, '--out', 'raw'], scratch, npmEnv());
    expect(scan.stdout).toMatch(
      new RegExp(
        `^Scanned 1 of 1 pages in [\\d.]+ s: [1-9]\\d* violations \\(axe-core ${manifest.dependencies['axe-core']}\\)$`,
        'm',
      ),
    );
    // No service and no baseline file: the violation fails the run, as pa11y-ci's would.
    expect(scan.stdout).toContain('No baseline file yet (.a11y-gate/baseline.json)');
    expect(scan.code).toBe(1);
    const junit = fs.readFileSync(path.join(scratch, 'junit.xml'), 'utf8');
    expect(junit).toContain('tests="1" failures="1"');
    expect(junit).toContain('image-alt');
    expect(fs.readdirSync(path.join(scratch, 'raw'))).toEqual(['001-index.json']);
    // The baseline recorded, the same page passes: its issue is existing.
    const recorded = await run(
      'npx',
      ['--offline', 'a11y-gate', 'baseline', ...args.slice(3)],
      scratch,
      npmEnv(),
    );
    expect(recorded.code).toBe(0);
    expect(fs.readFileSync(path.join(scratch, '.a11y-gate', 'baseline.json'), 'utf8')).toContain(
      '"rule": "image-alt"',
    );
    const again = await run('npx', args, scratch, npmEnv());
    expect(again.stdout).toContain('Gate passed: 0 new issues (against .a11y-gate/baseline.json: 1 existing');
    expect(again.code).toBe(0);
  }, 120_000);
});
