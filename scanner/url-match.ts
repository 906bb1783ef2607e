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

/** The URL without its fragment: `page#a` and `page#b` are one page. Null when it is not http(s). */
export function withoutFragment(url: string, base?: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url, base);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  parsed.hash = '';
  return parsed.href;
}

/** Links to these are files, not pages: the crawl does not open them. */
const NOT_PAGES =
  /\.(pdf|zip|gz|tgz|png|jpe?g|gif|svg|webp|ico|mp[34]|webm|mov|avi|docx?|xlsx?|pptx?|csv|json|xml|txt|css|js)$/i;

export function looksLikePage(url: string): boolean {
  return !NOT_PAGES.test(new URL(url).pathname);
}
