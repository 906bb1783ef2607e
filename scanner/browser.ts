import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Google Chrome as GitHub's Ubuntu runners install it. */
export const RUNNER_CHROME = '/usr/bin/google-chrome';

/** No browser could be found, or the one named cannot be started: a setup mistake, not a finding. */
export class BrowserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrowserError';
  }
}

export interface BrowserLookup {
  chromePath: string | null;
  env: NodeJS.ProcessEnv;
  /** Injected by tests; the file system by default. */
  isFile?: (file: string) => boolean;
}

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function onPath(name: string, env: NodeJS.ProcessEnv, isFile: (f: string) => boolean): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isFile(candidate)) return candidate;
  }
  return null;
}

/**
 * The browser to drive, in this order: the `chrome-path` input, else CHROME_PATH, else the runner's Google
 * Chrome, else `chromium` on PATH. A path given explicitly must exist: falling back to another browser would
 * hide a typo.
 */
export function resolveBrowser({ chromePath, env, isFile = isExecutableFile }: BrowserLookup): string {
  if (chromePath) {
    if (!isFile(chromePath)) throw new BrowserError(`chrome-path "${chromePath}" is not an executable file`);
    return chromePath;
  }
  if (env.CHROME_PATH) {
    if (!isFile(env.CHROME_PATH)) {
      throw new BrowserError(`CHROME_PATH "${env.CHROME_PATH}" is not an executable file`);
    }
    return env.CHROME_PATH;
  }
  if (isFile(RUNNER_CHROME)) return RUNNER_CHROME;
  const chromium = onPath('chromium', env, isFile) ?? onPath('chromium-browser', env, isFile);
  if (chromium) return chromium;
  throw new BrowserError(
    `No Chrome or Chromium found. Looked at: the chrome-path input (empty), the CHROME_PATH variable (not set), ` +
      `${RUNNER_CHROME} (absent), and "chromium" on PATH (absent). Install one (e.g. apt-get install chromium) ` +
      'or set chrome-path.',
  );
}

/**
 * Chromium's own sandbox stays off (Playwright's default, `--no-sandbox`): Ubuntu 23.10 and later restrict the
 * unprivileged user namespaces it needs, so it fails there with "No usable sandbox!". The scanner only opens
 * the pages it was asked to scan. /dev/shm is small in containers, so Chromium uses /tmp instead.
 */
const ARGS = ['--disable-dev-shm-usage', '--disable-gpu', '--no-first-run', '--disable-component-update'];

export async function launchBrowser(executablePath: string): Promise<Browser> {
  try {
    return await chromium.launch({ executablePath, args: ARGS, headless: true, chromiumSandbox: false });
  } catch (err) {
    const first = (err instanceof Error ? err.message : String(err)).split('\n').slice(0, 6).join('\n');
    throw new BrowserError(`Could not start ${executablePath}: ${first}`);
  }
}
