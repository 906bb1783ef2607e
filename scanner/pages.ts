import fs from 'node:fs/promises';
import type { PageSources } from './options.js';
import { pageAddress, globsMatcher } from './url-match.js';

/** A page source that cannot be read (a sitemap that does not answer, a missing URL file). */
export class PageSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageSourceError';
  }
}

const MAX_SITEMAPS = 50;
const SITEMAP_TIMEOUT_MS = 30_000;

/** `<loc>` values of a sitemap or sitemap index (XML entities decoded, CDATA unwrapped). */
export function parseSitemap(xml: string): { index: boolean; locs: string[] } {
  const index = /<sitemapindex[\s>]/i.test(xml);
  const locs = [...xml.matchAll(/<loc>\s*(?:<!\[CDATA\[)?\s*([^<\]]+?)\s*(?:\]\]>)?\s*<\/loc>/gi)].map((m) =>
    m[1]
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&'),
  );
  return { index, locs };
}

/** `from => to`: sitemap URLs starting with `from` start with `to` instead. */
export function rewriteUrl(url: string, rewrite: PageSources['sitemapRewrite']): string {
  if (!rewrite || !url.startsWith(rewrite.from)) return url;
  return rewrite.to + url.slice(rewrite.from.length);
}

async function fetchText(url: string, headers: Record<string, string>): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { headers, signal: AbortSignal.timeout(SITEMAP_TIMEOUT_MS) });
  } catch (err) {
    throw new PageSourceError(`sitemap ${url} could not be fetched: ${(err as Error).message}`);
  }
  if (!res.ok) throw new PageSourceError(`sitemap ${url} answered HTTP ${res.status}`);
  return res.text();
}

/**
 * A served folder's sitemap names the production host: its URLs are taken onto the served origin by path
 * (query kept), so `https://shop.example.com/about` is scanned at `http://127.0.0.1:PORT/about`.
 */
export function ontoOrigin(url: string, origin: string): string {
  if (!URL.canParse(url)) return url;
  const u = new URL(url);
  return new URL(u.pathname + u.search + u.hash, origin).href;
}

/**
 * Every page of a sitemap, following a sitemap index one level at a time (at most 50 sitemaps); `aim` says
 * where each URL it lists (pages and sitemaps alike) is fetched.
 */
export async function sitemapUrls(
  sitemap: string,
  aim: (url: string) => string,
  headers: Record<string, string> = {},
): Promise<string[]> {
  const pages: string[] = [];
  const queue = [aim(sitemap)];
  const seen = new Set<string>();
  while (queue.length > 0 && seen.size < MAX_SITEMAPS) {
    const next = queue.shift() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    const { index, locs } = parseSitemap(await fetchText(next, headers));
    const rewritten = locs.map(aim);
    if (index) queue.push(...rewritten);
    else pages.push(...rewritten);
  }
  return pages;
}

/** A file of URLs: one a line, blank lines and `#` comments ignored. */
export async function fileUrls(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new PageSourceError(`the URL file ${file} cannot be read: ${(err as Error).message}`);
  }
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/**
 * Duplicates removed by the one-page-one-address rule (`/`, `/index.html` and `/#top` are one page; the
 * first wins, as written), and excluded URLs. A path (`/about`) is resolved against `base` (a served
 * folder's origin); without one it is refused.
 */
export function uniquePages(urls: string[], exclude: string[], base?: string): string[] {
  const excluded = globsMatcher(exclude);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const url of urls) {
    const page = pageAddress(url, base);
    if (!page) throw new PageSourceError(`"${url}" is not an absolute http(s) URL`);
    if (seen.has(page.key) || excluded(page.url) || excluded(page.key)) continue;
    seen.add(page.key);
    out.push(page.url);
  }
  return out;
}

/**
 * The starting pages: `urls`, then the sitemap's, then the file's. With `served` (the origin a folder is
 * served at), paths are resolved against it and the sitemap's URLs are taken onto it.
 */
export async function startPages(
  sources: PageSources,
  headers: Record<string, string>,
  served?: string,
): Promise<string[]> {
  const urls = [...sources.urls];
  if (sources.sitemap) {
    const aim = (url: string) => {
      const rewritten = rewriteUrl(url, sources.sitemapRewrite);
      return served ? ontoOrigin(new URL(rewritten, served).href, served) : rewritten;
    };
    urls.push(...(await sitemapUrls(sources.sitemap, aim, headers)));
  }
  if (sources.urlsFile) urls.push(...(await fileUrls(sources.urlsFile)));
  const pages = uniquePages(urls, sources.exclude, served);
  if (pages.length === 0) throw new PageSourceError('there are no pages to scan (every source is empty)');
  return pages;
}
