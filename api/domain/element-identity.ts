import { normalizeSelector } from './selector-normalisation.js';

/**
 * What stays stable about an element when the markup around it shifts: its tag, its identifying
 * attributes, its text, its HTML snippet with generated names masked, and its selector without
 * positional parts. The gate's matcher compares these when fingerprints differ (a sibling was
 * inserted, axe-core chose another selector, a build regenerated class hashes). Pure.
 */

export interface IdentitySource {
  selector: string | null;
  /** The element's outer HTML as the engine reported it (possibly cut short); null when unknown. */
  html: string | null;
}

export interface ElementIdentity {
  tag: string | null;
  /** Identifying attributes (`href`, `src`, `name`, `type`, `for`, `alt`, `title`, `role`, `aria-*`), masked. */
  attrs: Map<string, string>;
  /** The element's text, whitespace collapsed; '' when it has none or the HTML is unknown. */
  text: string;
  /** Opening tag with every attribute sorted and masked, then the text: equal when only order or hashes changed. */
  snippet: string;
  /** Tokens of the snippet (each attribute and each word), for a partial comparison. */
  snippetTokens: Set<string>;
  /** The selector's simple parts (`a`, `[href$="cart.html"]`, `.nav`) without `:nth-child(…)` and such. */
  path: SelectorPath;
}

const IDENTIFYING = new Set(['href', 'src', 'name', 'type', 'for', 'alt', 'title', 'role']);
// Snippets can be long; the opening tag and the start of the text identify the element.
const HTML_SCAN_LIMIT = 2_000;
const TEXT_LIMIT = 200;

/** What a generated name, UUID or database id always holds: a digit, `_`, or a known family prefix. */
const MAYBE_GENERATED = /[\d_]|sc-|css-|jsx-|svelte-|ember|jss|data-v-/;

/** React's useId ids as they appear in HTML (`:r3:`, `:R2d6:`), masked like the selector form. */
const REACT_ID = /^:[rR][0-9a-zA-Z]*:$/;

/** A generated name (class, id, id reference) masked the way selectors are for fingerprints. */
export function maskToken(token: string): string {
  if (REACT_ID.test(token)) return ':r*:';
  // Most names hold nothing generated: the selector normaliser is only worth running on candidates.
  if (!MAYBE_GENERATED.test(token)) return token;
  return normalizeSelector('.' + token).slice(1);
}

/**
 * Build hashes inside attribute values (`hero.3f9a1c.png`) match any build's. Plain numbers stay: in
 * `/orders/1001` they are what tells two links apart.
 */
const maskValue = (value: string) =>
  value.replace(/[0-9a-f]{6,}/gi, (m) => (/\d/.test(m) && /[a-f]/i.test(m) ? '*' : m));

const maskList = (value: string, mask: (t: string) => string) =>
  value.trim().split(/\s+/).filter(Boolean).map(mask).join(' ');

interface OpeningTag {
  tag: string | null;
  attrs: Array<[string, string]>;
  end: number;
}

// Sticky patterns over disjoint character classes: linear, and the snippet is cut to HTML_SCAN_LIMIT.
const TAG = /<([A-Za-z][A-Za-z0-9:-]*)/y;
const ATTR = /[\s/]*([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/y;

/** The first tag's name and attributes, and where its text starts. */
function openingTag(html: string): OpeningTag {
  TAG.lastIndex = html.indexOf('<');
  const tag = TAG.lastIndex >= 0 ? TAG.exec(html) : null;
  if (!tag) return { tag: null, attrs: [], end: 0 };
  const attrs: Array<[string, string]> = [];
  let at = TAG.lastIndex;
  for (;;) {
    ATTR.lastIndex = at;
    const m = ATTR.exec(html);
    if (!m || ATTR.lastIndex === at) break;
    at = ATTR.lastIndex;
    attrs.push([m[1].toLowerCase(), m[2] ?? m[3] ?? m[4] ?? '']);
  }
  const end = html.indexOf('>', at);
  return { tag: tag[1].toLowerCase(), attrs, end: end < 0 ? html.length : end + 1 };
}

/** The text of the snippet after the opening tag: tags dropped, entities left as written. */
function textOf(html: string, from: number): string {
  return html
    .slice(from)
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, TEXT_LIMIT);
}

/** Generated-looking class names, looser than fingerprints (a soft signal here): `css-fdmkty` too. */
const LOOSE_GENERATED = /^(css|sc|jsx|svelte)-[A-Za-z0-9]{5,10}$/;

function maskClass(token: string): string {
  const masked = maskToken(token);
  return LOOSE_GENERATED.test(masked) ? masked.replace(/-.*/, '-*') : masked;
}

interface SelectorPath {
  /** The element's own compound: its simple selectors (tag, classes, id, attributes). */
  last: Set<string>;
  /** The ancestors' simple selectors. */
  ancestors: Set<string>;
}

/** Simple selectors, positional pseudo-classes dropped, generated names masked; the element's tag added. */
function selectorPath(selector: string | null, tag: string | null): SelectorPath {
  const path: SelectorPath = { last: new Set(), ancestors: new Set() };
  if (!selector) return path;
  const key = normalizeSelector(selector)
    .replace(/:(?:nth-child|nth-of-type|nth-last-child|nth-last-of-type)\([^)]*\)/g, '')
    .replace(/:(?:first|last|only)-(?:child|of-type)/g, '');
  const compounds = key.split(/[ >+~]/).filter(Boolean);
  compounds.forEach((compound, i) => {
    const into = i === compounds.length - 1 ? path.last : path.ancestors;
    for (const part of compound.match(/\[[^\]]*\]|[.#]?(?:\\.|[^.#[\s])+/g) ?? []) {
      into.add(part.startsWith('.') ? '.' + maskClass(part.slice(1)) : part);
    }
  });
  if (tag) path.last.add(tag);
  return path;
}

/** The identity of one reported element, computed once per issue. */
export function elementIdentity(source: IdentitySource, sameHtml?: ElementIdentity): ElementIdentity {
  // An element with byte-identical HTML has the same tag, attributes, text and snippet: only its
  // selector path is its own.
  if (sameHtml && sameHtml.tag) return { ...sameHtml, path: selectorPath(source.selector, sameHtml.tag) };
  const html = source.html ? source.html.slice(0, HTML_SCAN_LIMIT) : '';
  const opening = html ? openingTag(html) : { tag: null, attrs: [], end: 0 };
  const attrs = new Map<string, string>();
  const all: string[] = [];
  for (const [name, raw] of opening.attrs) {
    const value =
      name === 'class'
        ? maskList(raw, maskClass)
        : name === 'id' || name === 'for' || name.startsWith('aria-')
          ? maskList(raw, maskToken)
          : maskValue(raw.trim());
    all.push(`${name}=${value}`);
    if (IDENTIFYING.has(name) || name.startsWith('aria-')) attrs.set(name, value);
  }
  all.sort();
  const text = html ? textOf(html, opening.end) : '';
  const tag = opening.tag ?? (source.selector ? selectorTag(source.selector) : null);
  const snippetTokens = new Set(all);
  for (const word of text.split(' ')) if (word) snippetTokens.add(`"${word}`);
  return {
    tag,
    attrs,
    text,
    snippet: html ? `<${opening.tag ?? ''} ${all.join(' ')}>${text}` : '',
    snippetTokens,
    path: selectorPath(source.selector, tag),
  };
}

/**
 * The identity to compare an element with another whose HTML is byte-identical: snippet, attributes
 * and text are then equal by construction, so only which of them are present matters, not their
 * masked values (nothing is masked here). Give the other element `elementIdentity(other, this)`; the
 * similarity of the two equals that of their full identities. Null when the HTML has no tag (the tag
 * would come from the selector): compare full identities then.
 */
export function identicalHtmlIdentity(source: IdentitySource): ElementIdentity | null {
  const html = source.html ? source.html.slice(0, HTML_SCAN_LIMIT) : '';
  const opening = html ? openingTag(html) : null;
  if (!opening?.tag) return null;
  const attrs = new Map<string, string>();
  for (const [name] of opening.attrs)
    if (IDENTIFYING.has(name) || name.startsWith('aria-')) attrs.set(name, '');
  return {
    tag: opening.tag,
    attrs,
    text: textOf(html, opening.end),
    snippet: html,
    snippetTokens: new Set(),
    path: selectorPath(source.selector, opening.tag),
  };
}

/** Without HTML, the last compound's type selector, when there is one. */
function selectorTag(selector: string): string | null {
  const last =
    selector
      .trim()
      .split(/[\s>+~]+/)
      .pop() ?? '';
  return /^[a-z][a-z0-9-]*/i.exec(last)?.[0].toLowerCase() ?? null;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * How much each kind of evidence weighs. Evidence neither side has (no HTML, no text, no identifying
 * attribute) is left out and the rest re-weighted, so a selector-only scan is judged on its selectors.
 */
export const SIMILARITY_WEIGHTS = { snippet: 0.3, attributes: 0.25, text: 0.15, path: 0.2, order: 0.1 };

/**
 * Two issues of one rule on one page are taken for the same element when their similarity is at least
 * this. On the drift corpus (test/fixtures/drift) every pair of reports of one element scores 0.83 or
 * more, and every pair of different elements of one rule and page 0.48 or less (order left neutral):
 * different elements of one kind (two links of a list, two inputs of a form) differ in an identifying
 * attribute or their text.
 */
export const SIMILARITY_THRESHOLD = 0.6;

/** The factor applied when an identifying attribute both elements have differs. */
export const CONFLICT_FACTOR = 0.7;

export interface Similarity {
  score: number;
  /** What agreed, for the explanation: `tag`, `snippet`, `attributes`, `text`, `path`. */
  same: string[];
}

/**
 * Similarity in [0, 1] of two elements; `order` is each one's position (0…1) among the page's
 * unmatched issues of the rule. A different tag is never the same element (score 0).
 */
export function similarity(
  a: ElementIdentity,
  b: ElementIdentity,
  orderA: number,
  orderB: number,
): Similarity {
  if (a.tag && b.tag && a.tag !== b.tag) return { score: 0, same: [] };
  const same: string[] = a.tag && a.tag === b.tag ? ['tag'] : [];
  // Each kind of evidence adds weight × value in this order (no closure: this runs per compared pair).
  let total = 0;
  let weight = 0;
  let conflict = false;
  if (a.snippet && b.snippet) {
    const value = a.snippet === b.snippet ? 1 : jaccard(a.snippetTokens, b.snippetTokens);
    total += SIMILARITY_WEIGHTS.snippet * value;
    weight += SIMILARITY_WEIGHTS.snippet;
    if (value === 1) same.push('snippet');
  }
  if (a.attrs.size > 0 || b.attrs.size > 0) {
    let agree = 0;
    let union = b.attrs.size;
    for (const [name, x] of a.attrs) {
      const y = b.attrs.get(name);
      if (y === undefined) union++;
      else if (x === y) agree++;
      else conflict = true;
    }
    const value = conflict ? 0 : agree / union;
    total += SIMILARITY_WEIGHTS.attributes * value;
    weight += SIMILARITY_WEIGHTS.attributes;
    if (value === 1) same.push('attributes');
  }
  if (a.text || b.text) {
    const value = a.text === b.text ? 1 : 0;
    total += SIMILARITY_WEIGHTS.text * value;
    weight += SIMILARITY_WEIGHTS.text;
    if (value === 1) same.push('text');
  }
  if (a.path.last.size > 0 || b.path.last.size > 0) {
    // The element's own part weighs most: wrapping content in a <div> changes only the ancestors.
    const value = 0.7 * jaccard(a.path.last, b.path.last) + 0.3 * jaccard(a.path.ancestors, b.path.ancestors);
    total += SIMILARITY_WEIGHTS.path * value;
    weight += SIMILARITY_WEIGHTS.path;
    if (value === 1) same.push('path');
  }
  total += SIMILARITY_WEIGHTS.order * (1 - Math.abs(orderA - orderB));
  weight += SIMILARITY_WEIGHTS.order;
  // Another href, src, name, for… on both sides is strong evidence of another element.
  const score = (total / weight) * (conflict ? CONFLICT_FACTOR : 1);
  return { score: Math.round(score * 1000) / 1000, same };
}

/** The sentence a deploy event shows for an issue paired by similarity. */
export function similarityEvidence(
  head: IdentitySource,
  baseline: IdentitySource,
  result: Similarity,
): string {
  const what = result.same.length ? `same ${result.same.join(', ')}` : 'closest remaining element';
  const selector =
    head.selector === baseline.selector
      ? `selector \`${head.selector ?? ''}\` unchanged`
      : `selector changed from \`${baseline.selector ?? ''}\` to \`${head.selector ?? ''}\``;
  return `Same element (similarity ${result.score.toFixed(2)}: ${what}); ${selector}.`;
}
