import { z } from 'zod';
import type { ScanOptions, SessionSettings, UrlSettings } from './options.js';
import { parseHeaders, type SettingFailure } from './settings.js';
import { globsMatcher } from './url-match.js';
import { parseViewports, ViewportsSchema } from './viewports.js';

/**
 * Per-URL settings (`UrlSettings`, options.ts) read from a configuration file's `pages`, and applied: each
 * page gets the first matching entry's settings over the run's, and is scanned once per viewport.
 */

/** One line of text, not empty: a value with a line break would be read as two. */
const text = z
  .string()
  .regex(/^[^\r\n]*$/, 'must be one line')
  .min(1, 'must not be empty');

/** An entry of a configuration file's `pages`, as the file writes it (its shape; parseUrlSettings reads it). */
export const PageSettingsSchema = z.strictObject({
  url: text,
  waitFor: text.optional(),
  headers: z.record(text, z.string().regex(/^[^\r\n]*$/, 'must be one line')).optional(),
  loginScript: text.optional(),
  viewports: ViewportsSchema.optional(),
});
export type PageSettings = z.infer<typeof PageSettingsSchema>;

/** How one page is scanned: once per viewport, each in the session it needs. */
export interface PagePlan {
  waitFor: string | null;
  sessions: SessionSettings[];
}

/** Reads the entries; `fail(index, key, problem)` names the entry and its key. */
export function parseUrlSettings(
  entries: readonly PageSettings[],
  fail: (index: number, key: string, problem: string) => Error,
): UrlSettings[] {
  return entries.map((e, i) => {
    const failAt: SettingFailure = (_name, problem) => fail(i, 'headers', problem);
    const headerLines = Object.entries(e.headers ?? {}).map(([k, v]) => `${k}: ${v}`);
    return {
      url: e.url,
      waitFor: e.waitFor?.trim() || null,
      headers: parseHeaders(failAt, headerLines.join('\n')),
      loginScript: e.loginScript?.trim() || null,
      viewports: e.viewports ? parseViewports(e.viewports, (problem) => fail(i, 'viewports', problem)) : null,
    };
  });
}

/** A session's identity: pages with equal keys may share a browser context. */
export function sessionKey(s: SessionSettings): string {
  const headers = Object.entries(s.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([headers, s.loginScript, s.viewport?.name ?? null]);
}

/** Each page's plan: the first matching entry's settings over the run's. */
export function pagePlanner(
  options: Pick<ScanOptions, 'waitFor' | 'headers' | 'loginScript' | 'viewports' | 'urlSettings'>,
): (url: string) => PagePlan {
  const entries = options.urlSettings.map((s) => ({ settings: s, matches: globsMatcher([s.url]) }));
  return (url) => {
    const own = entries.find((e) => e.matches(url))?.settings;
    const viewports = own?.viewports ?? options.viewports;
    const headers = { ...options.headers, ...own?.headers };
    const loginScript = own?.loginScript ?? options.loginScript;
    return {
      waitFor: own?.waitFor ?? options.waitFor,
      sessions: (viewports.length > 0 ? viewports : [null]).map((viewport) => ({
        headers,
        loginScript,
        viewport,
      })),
    };
  };
}
