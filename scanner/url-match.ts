import { normalizeUrl } from '../core/url-normalisation.js';

/**
 * URL globs for `exclude` and `login-url`: `*` matches within one path segment, `**` across segments, `?` one
 * character. A glob starting with a scheme matches the whole URL; any other matches the path, with or
 * without the query (`/admin/**`, `/login*`).
 */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      out += '.*';
      i++;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '.';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

export function globsMatcher(globs: string[]): (url: string) => boolean {
  const patterns = globs.map((g) => ({ whole: /^[a-z][a-z0-9+.-]*:/i.test(g), re: globToRegExp(g) }));
  return (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    const local = [parsed.pathname, parsed.pathname + parsed.search];
    return patterns.some((p) => (p.whole ? p.re.test(parsed.href) : local.some((l) => p.re.test(l))));
  };
}

/** A page to scan: the address it is known by (the kernel's rule) and the URL to open. */
export interface PageAddress {
  /** `normalizeUrl`: `/`, `/index.html` and `/#top` are one page, `/#/settings` (a route) another. */
  key: string;
  /** The URL as given, resolved, without a fragment unless the fragment is a single-page-app route. */
  url: string;
}

/**
 * The page a URL names, by the one-page-one-address rule of core/url-normalisation.ts, so the crawl and
 * the page list scan each page once. The URL opened stays as given (a server may need its `/index.html`,
 * its trailing slash or a `token` parameter the key leaves out). Null when it is not an http(s) URL.
 */
export function pageAddress(url: string, base?: string): PageAddress | null {
  const key = normalizeUrl(url, base);
  if (!key) return null;
  const parsed = new URL(url, base);
  if (!new URL(key).hash) parsed.hash = '';
  return { key, url: parsed.href };
}

/** Links to these are files, not pages: the crawl does not open them. */
const NOT_PAGES =
  /\.(pdf|zip|gz|tgz|png|jpe?g|gif|svg|webp|ico|mp[34]|webm|mov|avi|docx?|xlsx?|pptx?|csv|json|xml|txt|css|js)$/i;

export function looksLikePage(url: string): boolean {
  return !NOT_PAGES.test(new URL(url).pathname);
}
