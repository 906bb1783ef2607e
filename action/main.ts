// The action's entry point (ncc bundles it into dist/index.js). Everything else lives in run.ts, so tests
// import run() without executing it.
import { run } from './run.js';

await run();
