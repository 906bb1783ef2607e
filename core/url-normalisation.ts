/**
 * Page URL normalisation, so the same page scanned twice has the same key even when the crawler added
 * a fragment, a default port, a tracking parameter or a session id. The normalised URL is stored per
 * page; its path part (see `pageKey`) goes into issue fingerprints.
 *
 * One page, one address: a folder's index file and the folder are one page, so `/`, `/index.html`
 * and `/index.htm` are one address, and so are `/docs`, `/docs/` and `/docs/index.html` (a trailing
 * slash is dropped, then an index file name at the end of the path, then the slash before it; the root
 * stays `/`). The scanner's de-duplication, the crawl and the service's page keys all use this rule.
 */

/** Query parameters that identify a visit, a campaign or a session, never the page itself. */
const DROPPED_PARAMS = new Set([
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  'hsctatracking',
  'mkt_tok',
  'vero_id',
  'oly_anon_id',
  'oly_enc_id',
  'rb_clickid',
  's_cid',
  'ref_src',
  'sessionid',
  'session_id',
  'sessid',
  'sid',
  'jsessionid',
  'phpsessid',
  'cfid',
  'cftoken',
  'token',
  'access_token',
  'auth_token',
  // jQuery's cache buster (`?_=1700000000000`).
  '_',
]);

const DROPPED_PREFIXES = ['utm_', 'aspsessionid', 'pk_', 'mtm_', 'hsa_'];

export function isDroppedParam(name: string): boolean {
  const n = name.toLowerCase();
  return DROPPED_PARAMS.has(n) || DROPPED_PREFIXES.some((p) => n.startsWith(p));
}

/** True for `http:` and `https:` URLs that parse. */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Tracking parameters dropped, the rest sorted by name (stable: `a=1&a=2` keeps its order). */
function normalizeQuery(params: URLSearchParams): string {
  const kept = [...params.entries()].filter(([name]) => !isDroppedParam(name));
  kept.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new URLSearchParams(kept).toString();
}

/**
 * A single-page-app route (`#/inbox/?utm_source=x`) names a page: it is normalised like a path and
 * query. Any other fragment names a spot on the page and is dropped.
 */
function normalizeRoute(hash: string): string {
  const m = /^(#!?)(\/[^?]*)(?:\?(.*))?$/s.exec(hash);
  if (!m) return '';
  const path = m[2].length > 1 ? m[2].replace(/\/+$/, '') || '/' : m[2];
  const query = m[3] === undefined ? '' : normalizeQuery(new URLSearchParams(m[3]));
  return m[1] + path + (query ? `?${query}` : '');
}

/** A path by the one-page-one-address rule: no trailing slash, no index file name at its end. */
function pagePath(path: string): string {
  let p = path;
  // Until nothing changes, so that `/docs//index.html/` is `/docs` too and the rule is idempotent.
  for (let before = ''; p !== before;) {
    before = p;
    p = p.replace(/\/+$/, '').replace(/\/index\.html?$/, '');
  }
  return p || '/';
}

/**
 * Resolves `url` against `base` (so a page may be given as `/about`) and returns it normalised:
 * lower-case scheme and host (WHATWG URL), no default port, no `;jsessionid=…` path parameter, no
 * tracking or session query parameters, the rest sorted by name, no trailing slash except the root, no
 * index file name (`/docs/index.html` is `/docs`), and no fragment — except a hash-bang or `#/` route of a single-page app, which names a page.
 * Returns undefined when the result is not an http(s) URL.
 */
export function normalizeUrl(url: string, base?: string): string | undefined {
  let u: URL;
  try {
    u = base === undefined ? new URL(url) : new URL(url, base);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  u.username = '';
  u.password = '';
  // Java and old PHP put the session into the path: /shop;jsessionid=ABC?x=1
  u.pathname = u.pathname.replace(/;(jsessionid|phpsessid|sid)=[^/]*/gi, '');
  u.pathname = pagePath(u.pathname);
  u.search = normalizeQuery(u.searchParams);
  u.hash = normalizeRoute(u.hash);
  return u.href;
}

/**
 * The part of a normalised URL that names the page within its site: path, query and SPA route,
 * without scheme and host, so a preview deployment and production share fingerprints. A URL stored
 * before the index-file rule (`…/docs/index.html`) gets the key the rule gives it (`/docs`).
 */
export function pageKey(normalizedUrl: string): string {
  const u = new URL(normalizedUrl);
  return pagePath(u.pathname) + u.search + u.hash;
}

/**
 * A page key as the current rule writes it: a key recorded before the index-file rule (`/docs/index.html`,
 * `/index.htm?lang=de`) becomes the folder's (`/docs`, `/?lang=de`); the query and SPA route are kept.
 */
export function currentPageKey(key: string): string {
  const cut = key.search(/[?#]/);
  return cut < 0 ? pagePath(key) : pagePath(key.slice(0, cut)) + key.slice(cut);
}

/** The default `siteId` of a scan: the URL's host name (without port), lower-case. */
export function defaultSiteId(url: string): string | undefined {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
    return /^[a-z0-9][a-z0-9._-]{0,99}$/.test(host) ? host : undefined;
  } catch {
    return undefined;
  }
}

/** A page as a customer knows it: its public path, not the host the scan ran against. Pure. */
export function publicPath(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}
