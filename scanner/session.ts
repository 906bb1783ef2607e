import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ScanOptions } from './options.js';

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

/**
 * One browser context per worker, signed in as the options say: storage state, cookies on the scanned
 * origins, headers on requests to the scanned origins only (never to third-party hosts the pages load), then
 * the login script once on a page of its own.
 */
export async function openBrowserSession(
  browser: Browser,
  options: ScanOptions,
  origins: string[],
): Promise<BrowserContext> {
  const context = await browser.newContext({
    bypassCSP: options.bypassCsp,
    ...(options.storageState ? { storageState: options.storageState } : {}),
  });
  try {
    if (options.cookies.length > 0) {
      await context.addCookies(
        origins.flatMap((origin) => options.cookies.map((c) => ({ ...c, url: origin + '/' }))),
      );
    }
    const headers = options.headers;
    if (Object.keys(headers).length > 0) {
      const own = new Set(origins);
      await context.route('**/*', (route) => {
        const url = route.request().url();
        const origin = URL.canParse(url) ? new URL(url).origin : '';
        if (!own.has(origin)) return route.continue();
        return route.continue({ headers: { ...route.request().headers(), ...headers } });
      });
    }
    if (options.loginScript) {
      const login = await loadLoginScript(options.loginScript);
      const page = await context.newPage();
      page.setDefaultTimeout(options.timeoutMs);
      try {
        await login(page, context);
      } catch (err) {
        if (err instanceof LoginError) throw err;
        throw new LoginError(`login-script ${options.loginScript} failed: ${(err as Error).message}`);
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
