import os from 'node:os';
import type { SourceMapping } from './locate/static.js';
import { defaultScreenshotLimits, type ScreenshotLimits } from './screenshots.js';
import type { Shard } from '../core/scans/shards.js';
import type { ScanScope } from '../core/gate/coverage.js';
import type { Viewport } from './viewports.js';

/**
 * What one scan needs, as both faces (the Action and the CLI) hand it to the scanner after parsing their own
 * inputs. Plain data: parsing and validation happen in each face's input module, defaults here.
 */

/** axe-core tags run by default: WCAG 2.0-2.2 A and AA, plus axe's best practices. */
export const DEFAULT_AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
export const DEFAULT_MAX_PAGES = 50;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const WAIT_UNTIL = ['load', 'domcontentloaded', 'networkidle', 'commit'] as const;
export type WaitUntil = (typeof WAIT_UNTIL)[number];

/** Where the pages come from; several sources are merged in this order, duplicates removed. */
export interface PageSources {
  urls: string[];
  /** A sitemap.xml or sitemap index URL. */
  sitemap: string | null;
  /** `from => to`: sitemap URLs starting with `from` are scanned at `to` (a preview deployment). */
  sitemapRewrite: { from: string; to: string } | null;
  /** A file of URLs, one a line (`#` comments). */
  urlsFile: string | null;
  /** Follow same-origin links from the pages above, up to maxPages pages in all. */
  crawl: boolean;
  maxPages: number;
  /** Globs of URLs (or paths) never scanned. */
  exclude: string[];
  /** Scan only this shard's share of the pages (a job of a parallel run); null: every page. */
  shard: Shard | null;
  /**
   * What the scan says it covers: `partial` when it is of some pages only (a `urls-file` of the pages a
   * change touched, unless `scope` says `full`), compared on those pages only and never a baseline.
   */
  scope: ScanScope;
  /** A built folder served on 127.0.0.1 for the run (`spa`: unknown paths answer its index.html). */
  serve: { dir: string; spa: boolean } | null;
}

/**
 * Settings for some pages only: the pages whose address matches `url` (a glob read as `exclude` reads it)
 * get their own wait, headers, login script and viewports. The first entry that matches a page is the one
 * applied; a setting the entry leaves out is the run's.
 */
export interface UrlSettings {
  url: string;
  /** Replaces the run's `wait-for`; null: the run's. */
  waitFor: string | null;
  /** Merged over the run's headers (a name given here wins), sent to the scanned origins only. */
  headers: Record<string, string>;
  /** Replaces the run's login script; null: the run's. */
  loginScript: string | null;
  /** Replace the run's viewports; null: the run's. */
  viewports: Viewport[] | null;
}

/** The browser context a page needs: pages that need the same one share a worker's context. */
export interface SessionSettings {
  headers: Record<string, string>;
  loginScript: string | null;
  /** Null: the browser's default size, with no name in the issues' identity. */
  viewport: Viewport | null;
}

export interface ScanOptions extends PageSources {
  chromePath: string | null;
  bypassCsp: boolean;
  axeTags: string[];
  concurrency: number;
  timeoutMs: number;
  waitUntil: WaitUntil;
  /** A selector each page must show before it is scanned. */
  waitFor: string | null;
  headers: Record<string, string>;
  cookies: { name: string; value: string }[];
  /** A Playwright storage state file (cookies and local storage) a login step saved. */
  storageState: string | null;
  /** A module whose default export receives a page (and its context) to log in, once per worker. */
  loginScript: string | null;
  /** A glob: a page that ends there was redirected to the login page. */
  loginUrl: string | null;
  /** Every page is scanned once at each; none: once, at the browser's default size (1280x720, unnamed). */
  viewports: Viewport[];
  /** Settings of the pages matching a glob, over the run's (the CLI's configuration file `pages`). */
  urlSettings: UrlSettings[];
  /** The repository's root: findings are located in its files (null: not located). */
  sourceRoot: string | null;
  /** URL prefixes served from folders of the repository (static sites). */
  sourceMaps: SourceMapping[];
  /** A team's own `path:line[:column]` attribute. */
  sourceAttribute: string | null;
  /** Pictures of violating elements: whether to take them, and how many and how large. */
  screenshots: ScreenshotLimits;
  /** Keep every passing element (axe-core's `passes` nodes), as verifying a fix needs; else one per rule. */
  keepPasses: boolean;
}

/** Progress as the scan goes: the Action logs lines, the CLI draws a bar on a TTY. */
export interface ScanProgress {
  /** Once, before the first page: how many are known. A crawl's later levels raise the total `page` carries. */
  planned(total: number): void;
  page(result: { url: string; ok: boolean; detail: string }, done: number, total: number): void;
  note(message: string): void;
}

export const silentProgress: ScanProgress = { planned: () => {}, page: () => {}, note: () => {} };

/** Every option at its default; each face overrides what its inputs set. */
export function defaultScanOptions(): ScanOptions {
  return {
    urls: [],
    sitemap: null,
    sitemapRewrite: null,
    urlsFile: null,
    crawl: false,
    maxPages: DEFAULT_MAX_PAGES,
    exclude: [],
    shard: null,
    scope: 'full',
    serve: null,
    chromePath: null,
    bypassCsp: true,
    axeTags: [...DEFAULT_AXE_TAGS],
    concurrency: Math.max(1, os.availableParallelism()),
    timeoutMs: DEFAULT_TIMEOUT_MS,
    waitUntil: 'load',
    waitFor: null,
    headers: {},
    cookies: [],
    storageState: null,
    loginScript: null,
    loginUrl: null,
    viewports: [],
    urlSettings: [],
    sourceRoot: null,
    sourceMaps: [],
    sourceAttribute: null,
    screenshots: defaultScreenshotLimits(),
    keepPasses: false,
  };
}
