export interface ApiResponse<T> {
  status: number;
  body: T;
  /** The `Location` header resolved against the base URL, when the service sent one. */
  location: string | null;
  /** The page for people the service links to (`Link: <…>; rel="alternate"; type="text/html"`), if any. */
  pageUrl: string | null;
  /** True when the service replayed an earlier answer for the same Idempotency-Key. */
  replayed: boolean;
  requestId: string | null;
}

/** Where an answer points: `Location` resolved against the base URL, and the page for people, if any. */
export function responseLinks(
  headers: Headers,
  resolve: (location: string) => string,
): { location: string | null; pageUrl: string | null } {
  const location = headers.get('location');
  return { location: location ? resolve(location) : null, pageUrl: htmlAlternate(headers.get('link')) };
}

/**
 * The `rel="alternate"; type="text/html"` target of a Link header (RFC 8288): the console page the service
 * offers for people when it has a public URL. Only an absolute http(s) URL is taken.
 */
export function htmlAlternate(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(/,(?=\s*<)/)) {
    const m = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!m) continue;
    const params = m[2].toLowerCase();
    if (!/;\s*rel="?alternate"?/.test(params) || !/;\s*type="?text\/html"?/.test(params)) continue;
    if (/^https?:\/\//i.test(m[1])) return m[1];
  }
  return null;
}
