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

export interface OpeningTag {
  tag: string | null;
  attrs: Array<[string, string]>;
  end: number;
}

// Sticky patterns over disjoint character classes: linear, and the snippet is cut to HTML_SCAN_LIMIT.
const TAG = /<([A-Za-z][A-Za-z0-9:-]*)/y;
const ATTR = /[\s/]*([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/y;

/** The first tag's name and attributes, and where its text starts. */
export function openingTag(html: string): OpeningTag {
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
export function textOf(html: string, from: number): string {
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

/** An attribute's value with generated names and build hashes masked. */
function maskAttribute(name: string, raw: string): string {
  if (name === 'class') return maskList(raw, maskClass);
  if (name === 'id' || name === 'for' || name.startsWith('aria-')) return maskList(raw, maskToken);
  return maskValue(raw.trim());
}

/**
 * The element's opening tag as identities compare it (attributes sorted, generated names and hashes
 * masked), without its text: what the same component renders on every page. Null without a tag.
 */
export function openingTagKey(html: string | null): string | null {
  const opening = html ? openingTag(html.slice(0, HTML_SCAN_LIMIT)) : null;
  if (!opening?.tag) return null;
  const attrs = opening.attrs.map(([name, raw]) => `${name}=${maskAttribute(name, raw)}`).sort();
  return `<${[opening.tag, ...attrs].join(' ')}>`;
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
    const value = maskAttribute(name, raw);
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

/** What byte-identical HTML tells of an element without its selector: tag, identifying attributes, text. */
export interface IdenticalHtml {
  tag: string;
  /** The identifying attributes present (values left out: on identical HTML they are equal). */
  attrs: Map<string, string>;
  text: string;
  html: string;
}

/** Null when the HTML has no tag (the tag would come from the selector): compare full identities then. */
export function identicalHtmlParts(source: IdentitySource): IdenticalHtml | null {
  const html = source.html ? source.html.slice(0, HTML_SCAN_LIMIT) : '';
  const opening = html ? openingTag(html) : null;
  if (!opening?.tag) return null;
  const attrs = new Map<string, string>();
  for (const [name] of opening.attrs)
    if (IDENTIFYING.has(name) || name.startsWith('aria-')) attrs.set(name, '');
  return { tag: opening.tag, attrs, text: textOf(html, opening.end), html };
}

/** Whether `identicalHtmlParts` finds a tag, without parsing: the first `<` is followed by a letter. */
export function hasOpeningTag(source: IdentitySource): boolean {
  const html = source.html ?? '';
  const lt = html.indexOf('<');
  if (lt < 0 || lt + 1 >= Math.min(html.length, HTML_SCAN_LIMIT)) return false;
  const c = html.charCodeAt(lt + 1) | 0x20;
  return c >= 0x61 && c <= 0x7a;
}

/**
 * The identity to compare an element with another whose HTML is byte-identical: snippet, attributes
 * and text are then equal by construction, so only which of them are present matters, not their
 * masked values (nothing is masked here). Give the other element `elementIdentity(other, this)`; the
 * similarity of the two equals that of their full identities.
 */
export function identicalHtmlIdentity(source: IdentitySource, parts: IdenticalHtml): ElementIdentity {
  return {
    tag: parts.tag,
    attrs: parts.attrs,
    text: parts.text,
    snippet: parts.html,
    snippetTokens: new Set(),
    path: selectorPath(source.selector, parts.tag),
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

export interface MatchDetails extends IdentitySource {
  rule: string;
  /** The normalised page the issue was found on (its page key). */
  page: string;
  /** Its place in the scan (the row id); default: its index in the list given. */
  position?: number;
}
