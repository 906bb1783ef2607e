import fs from 'node:fs';
import path from 'node:path';
import { defaultScanOptions, WAIT_UNTIL, type ScanOptions, type WaitUntil } from './options.js';
import { SCREENSHOT_MAX_KB, type ScreenshotLimits } from './screenshots.js';
import { SCREENSHOTS_PER_PAGE, SCREENSHOTS_PER_SCAN } from '../core/scans/pictures.js';
import { parseShard, type Shard } from '../core/scans/shards.js';
import { SCAN_SCOPES, type ScanScope } from '../core/gate/coverage.js';
import { parseViewports } from './viewports.js';

/**
 * The scanner's settings read from named text values: the Action's inputs and the CLI's flags use the same
 * names (`max-pages`, `wait-for`…) and this one reading. `fail(name, problem)` builds each face's error.
 */
export type GetSetting = (name: string) => string;
export type SettingFailure = (name: string, problem: string) => Error;

/** Lists: one item a line, or comma-separated (`urls`, `exclude`, `axe-tags`, `viewports`). */
function list(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter((s) => s && !s.startsWith('#'));
}

function integer(get: GetSetting, fail: SettingFailure, name: string, fallback: number, min: number): number {
  const text = get(name).trim();
  if (!text) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
    throw fail(name, `must be an integer of at least ${min}, got "${text}"`);
  }
  return Number(text);
}

function bool(get: GetSetting, fail: SettingFailure, name: string, fallback: boolean): boolean {
  const text = get(name).trim();
  if (!text) return fallback;
  if (/^true$/i.test(text)) return true;
  if (/^false$/i.test(text)) return false;
  throw fail(name, `must be true or false, got "${text}"`);
}

function absoluteUrl(fail: SettingFailure, name: string, value: string): string {
  if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) {
    throw fail(name, `must hold absolute http(s) URLs, got "${value}"`);
  }
  return value;
}

/** A page of a served folder may be named by its path (`/about`), resolved against the folder's address. */
function pageUrl(fail: SettingFailure, name: string, value: string, served: boolean): string {
  if (!served) return absoluteUrl(fail, name, value);
  if (/^\/(?!\/)/.test(value)) return value;
  if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) {
    throw fail(
      name,
      `must hold absolute http(s) URLs or paths of the served folder (/about), got "${value}"`,
    );
  }
  return value;
}

/** `serve`: a built folder the run serves on 127.0.0.1; `spa`: unknown paths answer its index.html. */
function serveSetting(get: GetSetting, fail: SettingFailure): ScanOptions['serve'] {
  const dir = get('serve').trim();
  const spa = bool(get, fail, 'spa', false);
  if (!dir) {
    if (spa) throw fail('spa', 'needs "serve": the built folder to serve as a single-page app');
    return null;
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw fail('serve', `must be a folder: "${dir}" does not exist`);
  }
  if (!stat.isDirectory()) throw fail('serve', `must be a folder: "${dir}" is not one`);
  return { dir: path.resolve(dir), spa };
}

/**
 * A served folder's pages when none are given: its own sitemap.xml (whose production URLs are taken onto
 * the served address by path), else a crawl from `/`; `crawl` alone starts from `/` too.
 */
function servedPages(
  serve: NonNullable<ScanOptions['serve']>,
  sources: { urls: string[]; sitemap: string | null; urlsFile: string | null; crawl: boolean },
): { urls: string[]; sitemap: string | null; crawl: boolean } {
  const { urls, sitemap, urlsFile, crawl } = sources;
  if (urls.length > 0 || urlsFile || (sitemap && !crawl)) return { urls, sitemap, crawl };
  if (!crawl && fs.existsSync(path.join(serve.dir, 'sitemap.xml'))) {
    return { urls, sitemap: '/sitemap.xml', crawl };
  }
  return { urls: ['/'], sitemap, crawl: true };
}

/** `Name: value` a line. */
export function parseHeaders(fail: SettingFailure, text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines(text)) {
    const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) throw fail('headers', `must be "Name: value" lines, got a line starting "${line.slice(0, 20)}"`);
    out[m[1].toLowerCase()] = m[2];
  }
  return out;
}

/** `name=value`, separated by `;` or new lines (what a Cookie header or a browser's devtools shows). */
export function parseCookies(fail: SettingFailure, text: string): { name: string; value: string }[] {
  return text
    .split(/[;\n]/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw fail('cookies', 'must be name=value pairs separated by ";" or new lines');
      return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim() };
    });
}

function rewrite(fail: SettingFailure, text: string): ScanOptions['sitemapRewrite'] {
  if (!text.trim()) return null;
  const m = /^\s*(\S+)\s*=>\s*(\S+)\s*$/.exec(text);
  if (!m) throw fail('sitemap-rewrite', `must be "from => to", got "${text.trim()}"`);
  return { from: absoluteUrl(fail, 'sitemap-rewrite', m[1]), to: absoluteUrl(fail, 'sitemap-rewrite', m[2]) };
}

/** `PREFIX => DIR` a line: an absolute URL prefix or a path prefix, and a folder of the source root. */
export function parseSourceMaps(fail: SettingFailure, text: string): ScanOptions['sourceMaps'] {
  return lines(text).map((line) => {
    const m = /^(\S+)\s*=>\s*(\S+)$/.exec(line);
    if (!m || !(m[1].startsWith('/') || /^https?:\/\//i.test(m[1]))) {
      throw fail('source-map', `must be "PREFIX => DIR" with a URL or /path prefix, got "${line}"`);
    }
    return { prefix: m[1], dir: m[2] };
  });
}

const ATTRIBUTE_NAME = /^[a-zA-Z_:][-a-zA-Z0-9_:.]*$/;

/** The pages to scan and how: null when no page source is set (nothing to scan). */
export function parseScanSettings(get: GetSetting, fail: SettingFailure): ScanOptions | null {
  const d = defaultScanOptions();
  const serve = serveSetting(get, fail);
  let urls = list(get('urls')).map((u) => pageUrl(fail, 'urls', u, !!serve));
  let sitemap = get('sitemap').trim() || null;
  if (sitemap) pageUrl(fail, 'sitemap', sitemap, !!serve);
  const urlsFile = get('urls-file').trim() || null;
  if (!serve && urls.length === 0 && !sitemap && !urlsFile) return null;
  let crawl = bool(get, fail, 'crawl', false);
  if (serve) ({ urls, sitemap, crawl } = servedPages(serve, { urls, sitemap, urlsFile, crawl }));
  if (crawl && urls.length === 0 && !urlsFile) {
    throw fail('crawl', 'starts from "urls" or "urls-file": give at least one page');
  }
  const shard = shardSetting(get, fail, crawl);
  const waitUntil = get('wait-until').trim() || d.waitUntil;
  if (!(WAIT_UNTIL as readonly string[]).includes(waitUntil)) {
    throw fail('wait-until', `must be one of ${WAIT_UNTIL.join(', ')}, got "${waitUntil}"`);
  }
  const axeTags = list(get('axe-tags'));
  return {
    urls,
    sitemap,
    sitemapRewrite: rewrite(fail, get('sitemap-rewrite')),
    urlsFile,
    crawl,
    maxPages: integer(get, fail, 'max-pages', d.maxPages, 1),
    exclude: list(get('exclude')),
    shard,
    scope: scopeSetting(get, fail, urlsFile),
    serve,
    chromePath: get('chrome-path').trim() || null,
    bypassCsp: bool(get, fail, 'bypass-csp', true),
    axeTags: axeTags.length > 0 ? axeTags : d.axeTags,
    concurrency: integer(get, fail, 'concurrency', d.concurrency, 1),
    timeoutMs: integer(get, fail, 'timeout', d.timeoutMs / 1000, 1) * 1000,
    waitUntil: waitUntil as WaitUntil,
    waitFor: get('wait-for').trim() || null,
    headers: parseHeaders(fail, get('headers')),
    cookies: parseCookies(fail, get('cookies')),
    storageState: get('storage-state').trim() || null,
    loginScript: get('login-script').trim() || null,
    loginUrl: get('login-url').trim() || null,
    viewports: parseViewports(list(get('viewports')), (problem) => fail('viewports', problem)),
    urlSettings: [],
    ...sourceSettings(get, fail),
    screenshots: screenshotSettings(get, fail),
    // The passing elements of the text rules go with the scan, for claimed fixes (docs/scans.md).
    keepPasses: bool(get, fail, 'keep-passes', d.keepPasses),
  };
}

/**
 * `scope`: `full` or `partial`. Left empty, a scan of a `urls-file` (the pages a change touched, as the
 * docs suggest) is partial, any other full.
 */
export function scopeSetting(get: GetSetting, fail: SettingFailure, urlsFile: string | null): ScanScope {
  const text = get('scope').trim();
  if (!text) return urlsFile ? 'partial' : 'full';
  if (!(SCAN_SCOPES as readonly string[]).includes(text)) {
    throw fail('scope', `must be ${SCAN_SCOPES.join(' or ')}, got "${text}"`);
  }
  return text as ScanScope;
}

/** `screenshots`, and limits that may be lowered, never raised past what the service keeps. */
function screenshotSettings(get: GetSetting, fail: SettingFailure): ScreenshotLimits {
  const upTo = (name: string, max: number): number => {
    const n = integer(get, fail, name, max, 0);
    if (n > max) throw fail(name, `must be at most ${max}, got "${get(name).trim()}"`);
    return n;
  };
  return {
    enabled: bool(get, fail, 'screenshots', true),
    perPage: upTo('screenshots-per-page', SCREENSHOTS_PER_PAGE),
    perScan: upTo('screenshots-per-scan', SCREENSHOTS_PER_SCAN),
    maxBytes: Math.max(1, upTo('screenshot-max-kb', SCREENSHOT_MAX_KB)) * 1024,
  };
}

/** `shard`: `I/N`; a crawl cannot be split, since its pages are found only as it goes. */
function shardSetting(get: GetSetting, fail: SettingFailure, crawl: boolean): Shard | null {
  const text = get('shard').trim();
  if (!text) return null;
  const shard = parseShard(text);
  if (typeof shard === 'string') throw fail('shard', shard);
  if (crawl) {
    throw fail(
      'shard',
      'cannot split a crawl: the pages a crawl finds are known only as it goes, so every job would crawl ' +
        'the same pages. Give the pages as urls, urls-file or a sitemap to scan them in shards',
    );
  }
  return shard;
}

function sourceSettings(
  get: GetSetting,
  fail: SettingFailure,
): Pick<ScanOptions, 'sourceRoot' | 'sourceMaps' | 'sourceAttribute'> {
  const sourceAttribute = get('source-attribute').trim() || null;
  if (sourceAttribute && !ATTRIBUTE_NAME.test(sourceAttribute)) {
    throw fail('source-attribute', `must be an attribute name, got "${sourceAttribute}"`);
  }
  return {
    sourceRoot: get('source-root').trim() || null,
    sourceMaps: parseSourceMaps(fail, get('source-map')),
    sourceAttribute,
  };
}
