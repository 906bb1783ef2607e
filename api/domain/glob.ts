/**
 * URL globs for waivers. `**` matches anything (including `/`), `*` matches anything except `/`,
 * `?` matches one character except `/`; every other character is literal. Compiled once per waiver.
 */
export function compileGlob(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        source += '.*';
        i++;
      } else {
        source += '[^/]*';
      }
    } else if (c === '?') {
      source += '[^/]';
    } else {
      source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`, 's');
}

/**
 * A pattern that starts with `/` is matched against the page's path and query (the host does not
 * matter: the same site is often scanned on preview hosts); otherwise against the whole URL.
 */
export function urlMatcher(pattern: string): (url: string) => boolean {
  const re = compileGlob(pattern);
  if (!pattern.startsWith('/')) return (url) => re.test(url);
  return (url) => {
    let path: string;
    try {
      const u = new URL(url);
      path = u.pathname + u.search;
    } catch {
      path = url;
    }
    return re.test(path) || re.test(path.split('?')[0]);
  };
}
