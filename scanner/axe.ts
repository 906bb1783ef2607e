import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

export type { AxeResults } from 'axe-core';

/**
 * axe-core's browser script, the package the service depends on. Read as a file, not imported: a bundler
 * rewrites a module's code, and the page needs the script exactly as axe-core ships it. The bundles carry
 * it as dist/node_modules/axe-core (see action/bundle.ts); found as Node finds packages, walking up from
 * here, done by hand because the bundler rewrites `require`.
 */
function axeDirectory(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', 'axe-core');
    if (fs.existsSync(path.join(candidate, 'axe.min.js'))) return candidate;
    if (path.dirname(dir) === dir)
      throw new Error('axe-core is not installed (node_modules/axe-core/axe.min.js)');
  }
}

const AXE_DIR = axeDirectory();
const AXE_SOURCE = fs.readFileSync(path.join(AXE_DIR, 'axe.min.js'), 'utf8');
export const AXE_VERSION = (
  JSON.parse(fs.readFileSync(path.join(AXE_DIR, 'package.json'), 'utf8')) as { version: string }
).version;

/**
 * Injects axe-core into every frame, then runs it from the top frame: axe reaches into an iframe only where
 * it is loaded too, and merges the frames' results itself (their selectors joined with the frame's).
 * Frames that go away meanwhile are skipped.
 */
export async function runAxe(page: Page, tags: string[]): Promise<AxeResults> {
  await Promise.all(
    page.frames().map((frame) =>
      frame.evaluate(AXE_SOURCE).catch((err: unknown) => {
        if (frame === page.mainFrame()) throw err;
      }),
    ),
  );
  return page.evaluate(
    (values) =>
      (
        globalThis as unknown as {
          axe: { run: (ctx: unknown, opts: unknown) => Promise<AxeResults> };
          document: unknown;
        }
      ).axe.run((globalThis as unknown as { document: unknown }).document, {
        runOnly: { type: 'tag', values },
        // Passes and inapplicable rules are kept (they say which rules ran), but not every node they passed.
        resultTypes: ['violations', 'incomplete'],
      }),
    tags,
  );
}

/** What the service reads of passes and inapplicable: the rule ids (which rules ran on the page). */
export function forSubmission(result: AxeResults): Record<string, unknown> {
  const ids = (rules: { id: string }[]) => rules.map((r) => ({ id: r.id }));
  return {
    testEngine: result.testEngine,
    url: result.url,
    violations: result.violations,
    incomplete: result.incomplete,
    passes: ids(result.passes),
    inapplicable: ids(result.inapplicable),
  };
}
