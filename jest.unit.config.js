/**
 * `npm run test:unit`: the quick loop. The test files that start no server, no browser, no database server
 * and no child process (pure code, renderers, schemas, the CLI's argument parsing, the App's payloads), so
 * they run in a few minutes on two cores on a machine with nothing installed beside npm's packages. A file
 * is a unit test when it names none of what starts those; `npm test` runs everything.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { base } from './jest.config.js';

const root = path.dirname(fileURLToPath(import.meta.url));
const STARTS_SOMETHING =
  /helpers\/(harness|axe-browser|server-process|sharded-site|scripted-api|pdf)|playwright-core|CHROMIUM|chromium|startServer|spawn|execFile|TEST_DATABASE_URL/;

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'reliability' ? [] : testFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const unit = testFiles(path.join(root, 'test')).filter(
  (f) => !STARTS_SOMETHING.test(readFileSync(f, 'utf8')),
);

export default {
  ...base,
  // Exact paths, as regular expressions (jest's testRegex), of the files chosen above.
  testMatch: undefined,
  testRegex: unit.map((f) => `${path.relative(root, f).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`),
};
