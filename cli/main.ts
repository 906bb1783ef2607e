#!/usr/bin/env node
// The CLI's entry point (`a11y-gate`, bundled into dist/cli/index.js); everything else lives in run.ts.
import { main } from './run.js';

process.exitCode = await main(process.argv.slice(2));
