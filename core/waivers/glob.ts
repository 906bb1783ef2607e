/**
 * URL globs for waivers. `**` matches anything (including `/`), `*` matches anything except `/`,
 * `?` matches one character except `/`; every other character is literal.
 *
 * Not compiled to a regular expression: JavaScript's engine backtracks, and a pattern like
 * `/**a**a**a**a**a**a**a**a**a**a**b` (within the 2,000 characters a waiver allows) made one URL
 * test take minutes, freezing the process for every gate of the site. The pattern is run as a state
 * set instead (an NFA simulation): time is at most URL length × pattern length, whatever the pattern.
 */

/** A literal character (a code point), or one of the wildcards. */
type Token = string | typeof ONE | typeof STAR | typeof GLOBSTAR;
const ONE = 0;
const STAR = 1;
const GLOBSTAR = 2;

function tokenize(pattern: string): Token[] {
  const chars = Array.from(pattern);
  const out: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    let t: Token = c;
    if (c === '?') t = ONE;
    else if (c === '*') {
      t = chars[i + 1] === '*' ? GLOBSTAR : STAR;
      if (t === GLOBSTAR) i++;
    }
    // Adjacent stars add states, not meaning: `***` is `**`, and `*` next to `**` is `**`.
    const prev = out[out.length - 1];
    if ((t === STAR || t === GLOBSTAR) && (prev === STAR || prev === GLOBSTAR)) {
      if (t === GLOBSTAR) out[out.length - 1] = GLOBSTAR;
      continue;
    }
    out.push(t);
  }
  return out;
}

/** A matcher for the whole string (anchored at both ends). */
export function compileGlob(pattern: string): (text: string) => boolean {
  const tokens = tokenize(pattern);
  const n = tokens.length;
  let cur = new Uint8Array(n + 1);
  let next = new Uint8Array(n + 1);
  // A star may match nothing: reaching it also reaches the token after it.
  const close = (set: Uint8Array) => {
    for (let i = 0; i < n; i++) if (set[i] && (tokens[i] === STAR || tokens[i] === GLOBSTAR)) set[i + 1] = 1;
  };
  return (text) => {
    cur.fill(0);
    cur[0] = 1;
    close(cur);
    for (const c of text) {
      next.fill(0);
      let any = false;
      for (let i = 0; i < n; i++) {
        if (!cur[i]) continue;
        const t = tokens[i];
        if (t === GLOBSTAR || (t === STAR && c !== '/')) {
          next[i] = 1;
          any = true;
        } else if ((t === ONE && c !== '/') || t === c) {
          next[i + 1] = 1;
          any = true;
        }
      }
      if (!any) return false;
      close(next);
      [cur, next] = [next, cur];
    }
    return cur[n] === 1;
  };
}

/** The URL as given and, when it differs, percent-decoded (`/caf%C3%A9` is also `/café`). */
function spellings(text: string): string[] {
  try {
    const decoded = decodeURI(text);
    return decoded === text ? [text] : [text, decoded];
  } catch {
    return [text];
  }
}

/**
 * A pattern that starts with `/` is matched against the page's path and query (the host does not
 * matter: the same site is often scanned on preview hosts), with or without the query; otherwise
 * against the whole URL. A URL is tried as given and percent-decoded, so a pattern may be written
 * with the characters people read (`/café/*`, `/my page`) or as browsers encode them.
 * Answers are remembered per URL: a scan's issues share few pages.
 */
export function urlMatcher(pattern: string): (url: string) => boolean {
  const glob = compileGlob(pattern);
  const byPath = pattern.startsWith('/');
  const seen = new Map<string, boolean>();
  const test = (url: string): boolean => {
    if (!byPath) return spellings(url).some(glob);
    let path: string;
    try {
      const u = new URL(url);
      path = u.pathname + u.search;
    } catch {
      path = url;
    }
    const noQuery = path.split('?')[0];
    return [...spellings(path), ...(noQuery === path ? [] : spellings(noQuery))].some(glob);
  };
  return (url) => {
    let answer = seen.get(url);
    if (answer === undefined) {
      answer = test(url);
      if (seen.size < 100_000) seen.set(url, answer);
    }
    return answer;
  };
}
