/**
 * Builds the CLI package in packages/cli (its `prepack` script runs this; so does `npm run build:cli`):
 *
 *   packages/cli/dist/index.js        cli/main.ts bundled by ncc (the scanner, the reports, the API client)
 *   packages/cli/node_modules/…       playwright-core and axe-core, the bundle's two runtime needs
 *
 * playwright-core reads its own files at run time and the scanner injects axe-core's browser script as a
 * file, so neither can be inlined (the Action's dist/ carries them the same way, see action/bundle.ts). The
 * package lists both as bundleDependencies: `npm pack` puts them in the tarball, and installing the tarball
 * fetches nothing. Their versions in packages/cli/package.json must be the ones installed here, which is
 * checked before anything is built. Nothing of this is committed: every pack builds it afresh.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = path.join(root, 'packages', 'cli');
const ncc = path.join(root, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js');

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  bundleDependencies?: string[];
}

const readManifest = (dir: string): Manifest =>
  JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;

/** What the scanner needs of each bundled package (every other file stays behind). */
const KEEP: Record<string, (file: string) => boolean> = {
  // Not its type definitions, README or trace viewer UI.
  'playwright-core': (file) => !['types', 'README.md', path.join('lib', 'vite')].includes(file),
  // The browser script, the version (package.json) and the licences.
  'axe-core': (file) => ['package.json', 'axe.min.js', 'LICENSE', 'LICENSE-3RD-PARTY.txt'].includes(file),
};

function checkVersions(manifest: Manifest): void {
  const bundled = manifest.bundleDependencies ?? [];
  const names = Object.keys(KEEP);
  if (bundled.slice().sort().join() !== names.slice().sort().join())
    throw new Error(
      `packages/cli/package.json bundles [${bundled.join(', ')}], the build copies [${names.join(', ')}]`,
    );
  for (const name of names) {
    const installed = readManifest(path.join(root, 'node_modules', name)).version;
    const wanted = manifest.dependencies?.[name];
    if (wanted !== installed)
      throw new Error(
        `packages/cli/package.json wants ${name}@${wanted ?? '(none)'}, but ${installed} is installed: ` +
          `set "${name}": "${installed}" in its dependencies`,
      );
  }
}

function copyPackage(name: string): void {
  const from = path.join(root, 'node_modules', name);
  const keep = KEEP[name];
  fs.cpSync(from, path.join(pkgDir, 'node_modules', name), {
    recursive: true,
    filter: (src) => src === from || keep(path.relative(from, src)),
  });
}

function buildCliPackage(): void {
  checkVersions(readManifest(pkgDir));
  for (const dir of ['dist', 'node_modules'])
    fs.rmSync(path.join(pkgDir, dir), { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [ncc, 'build', 'cli/main.ts', '-o', path.join(pkgDir, 'dist'), '-q'].concat(
      Object.keys(KEEP).flatMap((name) => ['-e', name]),
    ),
    { cwd: root, stdio: 'inherit' },
  );
  for (const name of Object.keys(KEEP)) copyPackage(name);
}

buildCliPackage();
