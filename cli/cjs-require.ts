import { createRequire } from 'node:module';

/**
 * lilconfig looks up `require` when it loads (`eval("require")` once bundled), and the CLI's bundle is an ES
 * module, which has none: this gives it Node's own before lilconfig loads (imported first by config.ts).
 * Outside the bundle lilconfig is a CommonJS module with its own, and this changes nothing it uses.
 */
const scope = globalThis as { require?: NodeJS.Require };
scope.require ??= createRequire(import.meta.url);
