import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { ScanOptions, SessionSettings } from './options.js';
import type { Viewport } from './viewports.js';

/** The login script failed or does not export a function: the scan cannot see what it was asked to. */
export class LoginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LoginError';
  }
}

type LoginFunction = (page: Page, context: BrowserContext) => unknown;

async function loadLoginScript(file: string): Promise<LoginFunction> {
  const href = pathToFileURL(path.resolve(file)).href;
  // webpackIgnore: the bundle must load the user's module at run time, not try to bundle it.
  const mod = (await import(/* webpackIgnore: true */ href)) as { default?: unknown; login?: unknown };
  const fn = typeof mod.default === 'function' ? mod.default : mod.login;
  if (typeof fn !== 'function') {
    throw new LoginError(`login-script ${file} exports no function (export default async (page) => {...})`);
  }
  return fn as LoginFunction;
}

/** The context's size and device: a viewport named by size, or a device's whole profile. */
function viewportContext(viewport: Viewport | null): BrowserContextOptions {
  if (!viewport) return {};
  return {
    viewport: { width: viewport.width, height: viewport.height },
    ...(viewport.device
      ? {
          ...(viewport.device.screen ? { screen: viewport.device.screen } : {}),
          deviceScaleFactor: viewport.device.deviceScaleFactor,
          isMobile: viewport.device.isMobile,
          hasTouch: viewport.device.hasTouch,
          userAgent: viewport.device.userAgent,
        }
      : {}),
  };
}

/**
 * A browser context for a worker, signed in as the options say: storage state, cookies on the scanned
 * origins, headers on requests to the scanned origins only (never to third-party hosts the pages load), then
 * the login script once on a page of its own. `session` holds what a page's own settings may change (its
 * headers, login script and viewport); left out, the run's.
 */
export async function openBrowserSession(
  browser: Browser,
  options: ScanOptions,
  origins: string[],
  session: SessionSettings = { headers: options.headers, loginScript: options.loginScript, viewport: null },
): Promise<BrowserContext> {
  const context = await browser.newContext({
    bypassCSP: options.bypassCsp,
    ...(options.storageState ? { storageState: options.storageState } : {}),
    ...viewportContext(session.viewport),
  });
  try {
    if (options.cookies.length > 0) {
      await context.addCookies(
        origins.flatMap((origin) => options.cookies.map((c) => ({ ...c, url: origin + '/' }))),
      );
    }
    const headers = session.headers;
    if (Object.keys(headers).length > 0) {
      const own = new Set(origins);
      await context.route('**/*', (route) => {
        const url = route.request().url();
        const origin = URL.canParse(url) ? new URL(url).origin : '';
        if (!own.has(origin)) return route.continue();
        return route.continue({ headers: { ...route.request().headers(), ...headers } });
      });
    }
    const script = session.loginScript;
    if (script) {
      const login = await loadLoginScript(script);
      const page = await context.newPage();
      page.setDefaultTimeout(options.timeoutMs);
      try {
        await login(page, context);
      } catch (err) {
        if (err instanceof LoginError) throw err;
        throw new LoginError(`login-script ${script} failed: ${(err as Error).message}`);
      } finally {
        await page.close();
      }
    }
    return context;
  } catch (err) {
    await context.close();
    throw err;
  }
}
