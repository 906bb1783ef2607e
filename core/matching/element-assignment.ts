import {
  elementIdentity,
  hasOpeningTag,
  identicalHtmlIdentity,
  identicalHtmlParts,
  type IdenticalHtml,
  type ElementIdentity,
} from './element-identity.js';
import { identicalHtmlFloor, similarity, type Similarity } from './element-similarity.js';
import type { MatchDetails } from './element-identity.js';

/**
 * The similarity step's assignment within one rule and page: candidates in scan order, identical HTML
 * first, then every remaining pair scored and taken greedily, best first, above the threshold.
 */

export interface MatchCandidate {
  index: number;
  details: MatchDetails;
  /** Computed when first compared (most candidates of a large scan pair on their HTML alone). */
  identity?: ElementIdentity;
  /** Position (0…1) among the group's issues on its side, in scan order. */
  order: number;
}

export function candidates(
  indices: readonly number[],
  details: ReadonlyMap<number, MatchDetails>,
): MatchCandidate[] {
  const out: MatchCandidate[] = [];
  for (const index of indices) {
    const d = details.get(index);
    if (d) out.push({ index, details: d, order: 0.5 });
  }
  const at = (c: MatchCandidate) => c.details.position ?? c.index;
  out.sort((a, b) => at(a) - at(b));
  out.forEach((c, i) => (c.order = out.length === 1 ? 0.5 : i / (out.length - 1)));
  return out;
}

const identityOf = (c: MatchCandidate, sameHtml?: ElementIdentity) =>
  (c.identity ??= elementIdentity(c.details, sameHtml));

/** A pair's similarity, for most pairs of identical HTML computed only when asked. */
export interface Judged {
  similarity(): Similarity;
}

/**
 * Called for each pair taken. `judged` gives the pair's similarity; for most pairs of identical HTML it
 * is computed only when asked (a deploy event shows a hundred of them, a large scan pairs thousands).
 */
export type OnPair = (x: MatchCandidate, y: MatchCandidate, judged: Judged) => void;

class Known implements Judged {
  constructor(private readonly s: Similarity) {}
  similarity(): Similarity {
    return this.s;
  }
}

/**
 * The similarity of two candidates with byte-identical HTML (a class, not closures: one per pair);
 * the HTML's parts are worked out when first needed unless given.
 */
class SameHtml implements Judged {
  private s?: Similarity;
  constructor(
    private readonly x: MatchCandidate,
    private readonly y: MatchCandidate,
    private readonly parts?: IdenticalHtml | null,
  ) {}

  similarity(): Similarity {
    if (this.s) return this.s;
    const { x, y } = this;
    const parts = this.parts === undefined ? identicalHtmlParts(x.details) : this.parts;
    if (!parts) return (this.s = similarity(identityOf(x), identityOf(y, x.identity), x.order, y.order));
    const light = identicalHtmlIdentity(x.details, parts);
    return (this.s = similarity(light, elementIdentity(y.details, light), x.order, y.order));
  }
}

/** Identical HTML with neither identifying attributes nor text: the least `identicalHtmlFloor` gives. */
const BAREST_HTML: Pick<IdenticalHtml, 'attrs' | 'text'> = { attrs: new Map(), text: '' };

/**
 * Elements whose HTML is byte-identical, and unique on each side, are compared with each other first
 * (their selector moved, the element did not): one comparison instead of one per candidate. Returns
 * the candidates still unpaired.
 */
function pairIdenticalHtml(
  h: MatchCandidate[],
  b: MatchCandidate[],
  threshold: number,
  onPair: OnPair,
): [MatchCandidate[], MatchCandidate[]] {
  const count = new Map<string, number>();
  const baseByHtml = new Map<string, MatchCandidate>();
  for (const x of h) if (x.details.html) count.set(x.details.html, (count.get(x.details.html) ?? 0) + 1);
  for (const y of b) {
    const html = y.details.html;
    if (!html || !count.has(html)) continue;
    if (baseByHtml.has(html)) count.set(html, 0);
    else baseByHtml.set(html, y);
  }
  const paired = new Set<MatchCandidate>();
  for (const x of h) {
    const html = x.details.html;
    const y = html && count.get(html) === 1 ? baseByHtml.get(html) : undefined;
    if (!y) continue;
    // Nothing of the shared HTML needs masking to compare the two (most pairs of a large scan), and
    // most reach the threshold whatever their selectors: their paths are compared when asked. Most
    // even whatever the HTML holds, which is then not parsed either (attributes and text only raise
    // the least score).
    let judged: Judged;
    if (hasOpeningTag(x.details) && identicalHtmlFloor(BAREST_HTML, x.order, y.order) >= threshold) {
      judged = new SameHtml(x, y);
    } else {
      const parts = identicalHtmlParts(x.details);
      judged = new SameHtml(x, y, parts);
      const sure = parts && identicalHtmlFloor(parts, x.order, y.order) >= threshold;
      if (!sure && judged.similarity().score < threshold) continue;
    }
    paired.add(x).add(y);
    onPair(x, y, judged);
  }
  return paired.size ? [h.filter((x) => !paired.has(x)), b.filter((y) => !paired.has(y))] : [h, b];
}

/** Beyond this many pairs in one rule and page, only elements with the same tag and snippet are compared. */
const PAIR_BUDGET = 250_000;

/** Pairs head and baseline candidates greedily by score (ties: closer order, then scan order). */
export function assign(
  hAll: MatchCandidate[],
  bAll: MatchCandidate[],
  threshold: number,
  onPair: OnPair,
): void {
  const [h, b] = pairIdenticalHtml(hAll, bAll, threshold, onPair);
  const pairs: Array<{ x: MatchCandidate; y: MatchCandidate; s: Similarity; gap: number }> = [];
  const large = h.length * b.length > PAIR_BUDGET;
  for (const x of h) {
    for (const y of b) {
      if (large && identityOf(x).snippet !== identityOf(y).snippet) continue;
      const s = similarity(identityOf(x), identityOf(y), x.order, y.order);
      if (s.score < threshold) continue;
      pairs.push({ x, y, s, gap: Math.abs(x.order - y.order) });
    }
  }
  pairs.sort(
    (p, q) => q.s.score - p.s.score || p.gap - q.gap || p.x.index - q.x.index || p.y.index - q.y.index,
  );
  const usedH = new Set<number>();
  const usedB = new Set<number>();
  for (const p of pairs) {
    if (usedH.has(p.x.index) || usedB.has(p.y.index)) continue;
    usedH.add(p.x.index);
    usedB.add(p.y.index);
    onPair(p.x, p.y, new Known(p.s));
  }
}
