// Runs the real axe-core package inside Debian's Chromium, so importer and report tests work on what axe
// actually emits. One browser per test file (jest module registry isolates files); call closeBrowser() in afterAll.
import { readFileSync } from 'node:fs';
import { CHROMIUM_PATH } from './requirements.js';
import { createRequire } from 'node:module';
import { chromium, type Browser } from 'playwright-core';
import type { AxeResults } from 'axe-core';

export type { AxeResults } from 'axe-core';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Where Chromium is, and whether it is there (tests that need it use requirements.ts's describeWith).
export { CHROMIUM_PATH, haveChromium } from './requirements.js';

let browserPromise: Promise<Browser> | undefined;

function browser(): Promise<Browser> {
  browserPromise ??= chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
  return browserPromise;
}

export interface RunAxeOptions {
  /** axe rule ids to run (axe `runOnly: {type: 'rule'}`); all rules when omitted. */
  runOnly?: string[];
  /** URL the page pretends to live at (axe reports it as `url`). */
  url?: string;
}

export async function runAxe(html: string, options: RunAxeOptions = {}): Promise<AxeResults> {
  const b = await browser();
  const context = await b.newContext();
  try {
    const page = await context.newPage();
    const url = options.url ?? 'http://fixture.test/';
    // Serve the html from a fake origin without any real network: every request is fulfilled here.
    await page.route('**/*', (route) => {
      const reqUrl = route.request().url();
      // Requests never carry the fragment.
      if (reqUrl === url.split('#')[0]) {
        return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
      }
      return route.fulfill({ status: 404, body: '' });
    });
    await page.goto(url, { waitUntil: 'load' });
    // axe reaches into iframes only where it is loaded too: inject it into every frame.
    for (const frame of page.frames()) await frame.addScriptTag({ content: axeSource });
    const runOnly = options.runOnly;
    const result = await page.evaluate(async (only) => {
      const axe = (
        globalThis as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } }
      ).axe;
      const opts = only ? { runOnly: { type: 'rule', values: only } } : {};
      return axe.run((globalThis as unknown as { document: unknown }).document, opts);
    }, runOnly ?? null);
    return result as AxeResults;
  } finally {
    await context.close();
  }
}

export async function closeBrowser(): Promise<void> {
  const pending = browserPromise;
  browserPromise = undefined;
  if (pending) await (await pending).close();
}
