#!/usr/bin/env node
// The CLI's entry point (`a11y-gate`, bundled into dist/cli/index.js); everything else lives in run.ts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from './run.js';

/** The version of the package this file belongs to: the nearest package.json above it that has one. */
function packageVersion(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    const version = fs.existsSync(file)
      ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown }).version
      : undefined;
    if (typeof version === 'string') return version;
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V'))
  process.stdout.write(`${packageVersion()}\n`);
else process.exitCode = await main(argv);
