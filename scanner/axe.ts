import axe from 'axe-core';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

export type { AxeResults } from 'axe-core';

/**
 * axe-core's own source (the package the service depends on, so the bundle carries exactly that version).
 * `axe.source` is the script axe-core builds itself from, meant for injection into pages.
 */
const AXE_SOURCE: string = (axe as unknown as { source: string }).source;
export const AXE_VERSION: string = axe.version;

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
