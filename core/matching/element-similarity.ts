import type { ElementIdentity, IdenticalHtml, IdentitySource } from './element-identity.js';

/**
 * How alike two reported elements are, from their identities (element-identity.ts): a weighted score
 * of snippet, identifying attributes, text, selector path and order, the threshold above which the
 * gate takes them for one element, and the sentence that explains a pair. Pure.
 */

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

/**
 * The least similarity two elements with byte-identical HTML can have, whatever their selectors:
 * `similarity` with their paths sharing nothing. The selector paths are most of a comparison's cost,
 * and most such pairs reach the threshold without them.
 */
export function identicalHtmlFloor(
  parts: Pick<IdenticalHtml, 'attrs' | 'text'>,
  orderA: number,
  orderB: number,
): number {
  // The same additions in the same order as `similarity`, so a pair whose paths share nothing scores
  // exactly this, and any other pair more.
  const w = SIMILARITY_WEIGHTS;
  let total = w.snippet;
  let weight = w.snippet;
  if (parts.attrs.size > 0) {
    total += w.attributes;
    weight += w.attributes;
  }
  if (parts.text) {
    total += w.text;
    weight += w.text;
  }
  weight += w.path;
  total += w.order * (1 - Math.abs(orderA - orderB));
  weight += w.order;
  return Math.round((total / weight) * 1000) / 1000;
}
