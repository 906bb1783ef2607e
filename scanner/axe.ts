import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AxeResults } from 'axe-core';
import type { Frame, Page } from 'playwright-core';
import { evaluateInTop } from './cdp.js';
import type { AxeRuleMeta } from '../core/catalog/explanation.js';

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

let rules: AxeRuleMeta[] | undefined;

/** axe-core's rule metadata (`axe.getRules()`), from the same script the pages run, loaded once when asked. */
export function axeRules(): AxeRuleMeta[] {
  rules ??= (
    createRequire(import.meta.url)(path.join(AXE_DIR, 'axe.min.js')) as { getRules(): AxeRuleMeta[] }
  ).getRules();
  return rules;
}

/**
 * A scanning tab carries axe-core's script in every frame as a function that is defined when the document is
 * created but run only when the page is scanned: the script (650 kB) crosses from Node to the browser once
 * per tab instead of once per frame of every page, and it still runs after the page's own scripts, as if
 * injected then (a page's own `axe` is replaced, as it would be).
 */
const LOADER = '__a11yGateLoadAxe';
const LOADER_SCRIPT =
  `Object.defineProperty(globalThis, ${JSON.stringify(LOADER)}, ` +
  `{ configurable: true, value: function () {\n${AXE_SOURCE}\n} });`;

export async function prepareTab(page: Page): Promise<void> {
  await page.addInitScript(LOADER_SCRIPT);
}

/** Loads axe-core in one frame: from the tab's loader where the frame has it, else by sending the script. */
async function loadAxe(frame: Frame): Promise<void> {
  const loaded = await frame.evaluate((name) => {
    const load = (globalThis as Record<string, unknown>)[name];
    if (typeof load !== 'function') return false;
    (load as () => void)();
    return true;
  }, LOADER);
  if (!loaded) await frame.evaluate(AXE_SOURCE);
}

/** What a page's scan reads of it in one call: axe-core's results and the document's title. */
export interface AxeRun {
  axe: AxeResults;
  title: string;
}

/** As it crosses from the page: the results as one JSON string where the page left JSON alone. */
interface InPage {
  axe: AxeResults | string;
  title: string;
}

/**
 * Loads axe-core into every frame, then runs it from the top frame: axe reaches into an iframe only where
 * it is loaded too, and merges the frames' results itself (their selectors joined with the frame's).
 * Frames that go away meanwhile are skipped. The top frame loads and runs it and reads the title in one
 * round trip to the browser, through the tab's own session (`cdp.ts`): on a busy machine each round trip
 * and each script compiled in a page waits for a turn on the cores.
 */
export async function runAxe(page: Page, tags: string[], keepPasses = false): Promise<AxeRun> {
  const main = page.mainFrame();
  await Promise.all(
    page
      .frames()
      .filter((frame) => frame !== main)
      .map((frame) => loadAxe(frame).catch(() => {})),
  );
  const arg = { values: tags, loader: LOADER, sent: false, keepPasses };
  let result = await evaluateInTop(page, runInPage, arg);
  if (result === null) {
    // The document has no loader (it was created before the tab's init script): the script is sent.
    await main.evaluate(AXE_SOURCE);
    result = await evaluateInTop(page, runInPage, { ...arg, sent: true });
  }
  if (result === null) throw new Error('axe-core did not load in the page');
  const axe = typeof result.axe === 'string' ? (JSON.parse(result.axe) as AxeResults) : result.axe;
  return { axe, title: result.title };
}

/**
 * In the page: loads axe-core from the tab's loader (null without one), runs it, returns its results and
 * the title. Self-contained: it runs in the page.
 */
async function runInPage(arg: {
  values: string[];
  loader: string;
  sent: boolean;
  keepPasses: boolean;
}): Promise<InPage | null> {
  const g = globalThis as unknown as {
    axe?: { run: (ctx: unknown, opts: unknown) => Promise<AxeResults> };
    document: unknown;
    Document: { prototype: object };
  } & Record<string, unknown>;
  const load = g[arg.loader];
  if (typeof load === 'function') (load as () => void)();
  // A page's own `axe` is never run: ours replaces it, from the loader or sent.
  else if (!arg.sent) return null;
  const out = await g.axe!.run(g.document, {
    runOnly: { type: 'tag', values: arg.values },
    // Passes and inapplicable rules are kept (they say which rules ran), but not every node they passed,
    // unless a fix is being verified: then the passing elements tell "fixed" from "gone".
    resultTypes: arg.keepPasses ? ['violations', 'incomplete', 'passes'] : ['violations', 'incomplete'],
  });
  // The title as the DOM has it, even where the page gave its document a `title` of its own.
  const title = String(Reflect.get(g.Document.prototype, 'title', g.document) ?? '');
  // As one JSON string: a result this size (thousands of small objects) crosses several times faster so.
  // Not where the page changed JSON (an old library's toJSON on a prototype).
  const prototypes = [Object.prototype, Array.prototype, String.prototype, Number.prototype];
  const plainJson =
    /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(JSON.stringify)) &&
    prototypes.every((p) => !Object.prototype.hasOwnProperty.call(p, 'toJSON'));
  return { axe: plainJson ? JSON.stringify(out) : out, title };
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
