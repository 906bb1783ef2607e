/**
 * Runs once before any test file. A part of the machine a test needs (PostgreSQL, Chromium) is checked by
 * test/helpers/requirements.ts in each file: under CI a missing part fails its tests; elsewhere they are
 * skipped, and this is the one place that says so, once for the whole run.
 * The conditions are requirements.ts's.
 */
import { existsSync } from 'node:fs';

export default function globalSetup() {
  const inCI = !!process.env.CI && process.env.CI !== 'false';
  if (inCI) return;
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const skipped = [];
  if (!process.env.TEST_DATABASE_URL)
    skipped.push('the PostgreSQL variants of the tests (TEST_DATABASE_URL is not set: SQLite only)');
  if (!existsSync(chromium)) skipped.push(`the tests in Chromium (${chromium} not found; set CHROMIUM_PATH)`);
  for (const what of skipped) process.stdout.write(`\nSKIPPED in this run: ${what}.\n`);
}
