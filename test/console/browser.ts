// The console in Debian's Chromium: pages are loaded from the real server, and axe-core runs inside them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';
import { CHROMIUM_PATH } from '../helpers/axe-browser.js';
import { chromium as chromiumPart, describeWith } from '../helpers/requirements.js';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The page's objects as the tests' page.evaluate callbacks use them (the project's TypeScript has no DOM
 * library): the few properties they read or set inside the page.
 */
export interface PageElement {
  /** A field's name and value (undefined on other elements). */
  name?: string;
  value?: string;
  /** A form's switch for the browser's own validation (forms only). */
  noValidate?: boolean;
  /** The form a button or field belongs to. */
  form?: { noValidate: boolean } | null;
  scrollHeight: number;
  scrollWidth: number;
  blur(): void;
  matches(selector: string): boolean;
}
export interface PageGlobals {
  document: { activeElement: PageElement | null; documentElement: PageElement };
}

/** WCAG 2.2 A and AA (with the 2.0 and 2.1 tags they build on) and axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

/** Chromium is required where CI runs (the tests then fail without it); elsewhere they are skipped visibly. */
export function describeInBrowser(name: string, body: () => void): void {
  describeWith(chromiumPart, name, body);
}

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
}

/**
 * axe-core's violations on the loaded page, as `rule: selector` lines (empty when there are none).
 * `contrastOnly` runs just the colour-contrast rule (the second colour scheme changes nothing else).
 */
export async function axeViolations(page: Page, contrastOnly = false): Promise<string[]> {
  // The console's CSP forbids inline scripts; a test may still evaluate code through the DevTools protocol.
  await page.evaluate(axeSource);
  const runOnly = contrastOnly
    ? { type: 'rule', values: ['color-contrast'] }
    : { type: 'tag', values: AXE_TAGS };
  const result = (await page.evaluate(async (only) => {
    const axe = (globalThis as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<unknown> } }).axe;
    return axe.run((globalThis as unknown as { document: unknown }).document, { runOnly: only });
  }, runOnly)) as AxeResults;
  // A run that checked nothing would pass anything.
  if (result.passes.length === 0) throw new Error(`axe-core checked nothing on ${page.url()}`);
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} (${n.failureSummary ?? ''})`),
  );
}

/**
 * axe-core in light and (contrast) dark, on a desktop and a 320 px screen, and nothing wider than the screen:
 * what was found, by screen (empty when nothing). Leaves the page at 1280 px, light.
 */
export async function violationsOnEveryScreen(page: Page, state: string): Promise<Record<string, string[]>> {
  const violations: Record<string, string[]> = {};
  for (const width of [1280, 320]) {
    await page.setViewportSize({ width, height: 800 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const found = await axeViolations(page, scheme === 'dark');
      if (found.length) violations[`${state} (${width} px, ${scheme})`] = found;
    }
    const wide = await page.evaluate(
      () => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth,
    );
    if (wide > width) violations[`${state} (${width} px)`] = [`the page is ${wide} px wide`];
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  return violations;
}

/** Presses Tab until the focused element matches `selector` (a keyboard user's way there). */
export async function tabTo(page: Page, selector: string, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (
      await page.evaluate(
        (s) => (globalThis as unknown as PageGlobals).document.activeElement?.matches(s) ?? false,
        selector,
      )
    )
      return;
  }
  throw new Error(`Tab never reached ${selector}`);
}
