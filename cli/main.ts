#!/usr/bin/env node
// The CLI's entry point (`a11y-gate`, bundled into dist/cli/index.js); everything else lives in run.ts.
import { packageVersion } from '../core/package-version.js';
import { main } from './run.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V'))
  process.stdout.write(`${packageVersion(import.meta.url)}\n`);
else process.exitCode = await main(argv);
