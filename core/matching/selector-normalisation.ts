/**
 * CSS selector normalisation for fingerprints: a selector that differs between two builds only by a
 * generated class name or id must give the same fingerprint. The generated part is replaced by `*`
 * (the family prefix is kept, so `.css-1x2y3z .sc-AbCdE` and `.css-9q8w7e .sc-XyZwV` match each
 * other but not `.btn .css-…`). The result is a key, not a selector to run.
 */

const UUID = /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/gi;

const hasDigit = (s: string) => /\d/.test(s);
const hasDigitOrUpper = (s: string) => /[\dA-Z]/.test(s);

/**
 * Generated identifiers (class names, ids, attribute names): pattern, a check on the hash part (to
 * spare hand-written names such as BEM's `card__title` or a `css-grid` class), and the replacement.
 * Emotion's base-36 hashes without a digit (about one in ten) are not recognised: we prefer a rare
 * "new" issue to merging two different elements.
 */
const GENERATED: Array<{
  pattern: RegExp;
  group: number;
  hash: (h: string) => boolean;
  replace: string;
  /** A further condition on the match, where a regex would backtrack. */
  also?: (m: RegExpExecArray) => boolean;
}> = [
  // emotion / MUI v5: css-1x2y3z, css-1x2y3z-Button
  { pattern: /^css-([a-z0-9]{5,8})(-.+)?$/, group: 1, hash: hasDigit, replace: 'css-*$2' },
  // styled-components: sc-AbCdE, Button__Styled-sc-1h74qkx-0
  { pattern: /^(.*-)?sc-([A-Za-z0-9]{5,10})(-\d+)?$/, group: 2, hash: hasDigitOrUpper, replace: '$1sc-*' },
  // CSS Modules (Next.js, css-loader): Button_primary__3xY7z. The name before `__` must hold an inner
  // `_`; checked in code, since `^(.+?_.+?)__` backtracks quadratically on a long name of underscores
  // (a 400,000-character class in a raw axe target held the event loop for half a minute).
  {
    pattern: /^(.+)__([A-Za-z0-9_-]{5})$/,
    group: 2,
    hash: hasDigitOrUpper,
    replace: '$1__*',
    also: (m) => m[1].slice(1, -1).includes('_'),
  },
  // CSS Modules with hash-only names: _a1b2c, _1xY2z3
  { pattern: /^_([A-Za-z0-9]{5,8})$/, group: 1, hash: hasDigit, replace: '_*' },
  // styled-jsx: jsx-123456789
  { pattern: /^jsx-(\d+)$/, group: 1, hash: hasDigit, replace: 'jsx-*' },
  // Svelte: svelte-1abcd2e
  { pattern: /^svelte-([a-z0-9]{5,})$/, group: 1, hash: hasDigit, replace: 'svelte-*' },
  // JSS / MUI v4: makeStyles-root-12, jss42
  { pattern: /^(makeStyles-[A-Za-z]+)-(\d+)$/, group: 2, hash: hasDigit, replace: '$1-*' },
  { pattern: /^jss(\d+)$/, group: 1, hash: hasDigit, replace: 'jss*' },
  // Vue scoped styles and Angular emulated encapsulation (usually attribute selectors)
  { pattern: /^data-v-([0-9a-f]{6,8})$/, group: 1, hash: () => true, replace: 'data-v-*' },
  { pattern: /^_ng(content|host)-([a-z0-9-]+)$/, group: 2, hash: () => true, replace: '_ng$1-*' },
  // Ember: ember123
  { pattern: /^ember(\d+)$/, group: 1, hash: hasDigit, replace: 'ember*' },
];

// An identifier in a selector: CSS escapes (`\:`) stay part of it (React's useId ids look like `#\:r1\:`).
const IDENT = /(?:\\.|[A-Za-z0-9_-])+/g;

// What every generated form above starts with or contains: other names (`main`, `nth-child`,
// `item-3`) skip the pattern list, which keeps the ingest of 50,000 issues fast.
const MAYBE_GENERATED = /^(?:css-|_|jsx-|svelte-|makeStyles-|jss|data-v-|ember)|sc-|__/;

/** A superset of what rewriteIdent rewrites, tested on the whole selector (any identifier is part of it). */
const MAYBE_REWRITTEN = /_|\\:|css-|jsx-|svelte-|makeStyles-|jss|data-v-|ember|sc-/;

/** React's useId ids (`#\:r1\:`, `#\:R2d6\:`) first, then the generated class and attribute names. */
function rewriteIdent(ident: string): string {
  if (ident.startsWith('\\:')) return /^\\:[rR][0-9a-zA-Z]*\\:$/.test(ident) ? '\\:r*\\:' : ident;
  if (!MAYBE_GENERATED.test(ident)) return ident;
  for (const g of GENERATED) {
    const m = g.pattern.exec(ident);
    if (m && g.hash(m[g.group]) && (!g.also || g.also(m))) {
      return ident.replace(g.pattern, g.replace);
    }
  }
  return ident;
}

/** Selector key: generated names, UUIDs and long numbers replaced, whitespace and combinators tidied. */
export function normalizeSelector(selector: string): string {
  let s = selector.trim();
  // Most selectors are already tidy: the replacements cost more than the tests that skip them.
  if (/\s\s|[^\S ]/.test(s)) s = s.replace(/\s+/g, ' ');
  // Whitespace is single spaces from here on.
  if (/ [>+~,]|[>+~,] /.test(s)) s = s.replace(/ ?([>+~,]) ?/g, '$1');
  s = s.replace(UUID, '*');
  // rewriteIdent changes only identifiers holding one of these: without any, the pass is skipped.
  if (MAYBE_REWRITTEN.test(s)) s = s.replace(IDENT, rewriteIdent);
  // Database ids and timestamps: runs of 4+ digits (nth-child(3) and h1 are untouched).
  s = s.replace(/\d{4,}/g, '*');
  return s;
}
