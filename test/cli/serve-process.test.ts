import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CHROMIUM_PATH, chromium, describeWith } from '../helpers/requirements.js';
import { runNode } from '../scanner/process.js';

// `a11y-gate scan --serve DIR` as a user runs it, from the sources through tsx: no server of their own, the
// built folder served by the command for the run, each finding at its path:line in the folder's files.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsx = pathToFileURL(path.join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const main = path.join(root, 'cli', 'main.ts');
const fixtures = path.join(root, 'test', 'fixtures', 'locate');

const a11yGate = (cwd: string, ...args: string[]) =>
  runNode(
    '--import',
    [tsx, main, ...args],
    { PATH: process.env.PATH ?? '', CHROME_PATH: CHROMIUM_PATH },
    cwd,
  );

test('a folder that is not there is a usage error: exit 2, one line naming it, no browser started', async () => {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-serve-cli-'));
  const run = await a11yGate(cwd, 'scan', '--serve', 'dist');
  expect(run.code).toBe(2);
  expect(run.stderr).toBe(
    'a11y-gate: --serve must be a folder: "dist" does not exist\nRun "a11y-gate --help" for the options.\n',
  );
  expect(run.stdout).toBe('');
}, 60_000);

describeWith(chromium, 'a11y-gate scan --serve', () => {
  test('the static fixture page, served from its folder: each new issue at its path:line in the repository', async () => {
    // Run where the fixtures' repository root is: the working folder is the source root.
    const run = await a11yGate(
      fixtures,
      'scan',
      '/gallery.html',
      '--serve',
      'static/site',
      '--no-screenshots',
      '--concurrency',
      '1',
    );
    expect(run.stderr).toMatch(/^Serving .+static\/site at http:\/\/127\.0\.0\.1:\d+\/$/m);
    expect(run.stdout).toMatch(/^Scanned 1 of 1 pages in [\d.]+ s: \d+ violations/m);
    // No baseline file: every violation is new, each located as `--source-map "/ => static/site"` would.
    expect(run.stdout).toMatch(
      /^ {3}at static\/site\/gallery\.html:11 on http:\/\/127\.0\.0\.1:\d+\/gallery\.html$/m,
    );
    expect(run.stdout).toMatch(/^ {3}at static\/site\/gallery\.html:15 on /m);
    expect(run.code).toBe(1);
  }, 180_000);
});
