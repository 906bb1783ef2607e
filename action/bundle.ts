import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run build:action`: the Action (dist/index.js) and the CLI (dist/cli/index.js), each bundled by ncc,
 * with playwright-core copied beside them as dist/node_modules/playwright-core. playwright-core reads its
 * own files (package.json, browsers.json) at run time, so it cannot be inlined; copied whole, a runner needs
 * no `npm install`. axe-core's browser script goes beside it the same way (the scanner injects the file).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ncc = path.join(root, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js');

function bundle(entry: string, out: string): void {
  execFileSync(
    process.execPath,
    [
      ncc,
      'build',
      entry,
      '-o',
      out,
      '--license',
      'licenses.txt',
      '-e',
      'playwright-core',
      '-e',
      'axe-core',
      '-q',
    ],
    { cwd: root, stdio: 'inherit' },
  );
}

/** What playwright-core needs to launch a browser: not its type definitions, docs or trace viewer UI. */
const SKIPPED = new Set(['types', 'README.md', path.join('lib', 'vite')]);

function copyPackage(name: string, keep: (file: string) => boolean): void {
  const from = path.join(root, 'node_modules', name);
  fs.cpSync(from, path.join(root, 'dist', 'node_modules', name), {
    recursive: true,
    filter: (src) => src === from || keep(path.relative(from, src)),
  });
}

// From scratch, so no file of an earlier build stays behind.
fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
bundle('action/main.ts', 'dist');
bundle('cli/main.ts', path.join('dist', 'cli'));
copyPackage('playwright-core', (file) => !SKIPPED.has(file));
// Only what the scanner reads (the browser script and the version) and the licence.
copyPackage('axe-core', (file) =>
  ['package.json', 'axe.min.js', 'LICENSE', 'LICENSE-3RD-PARTY.txt'].includes(file),
);
