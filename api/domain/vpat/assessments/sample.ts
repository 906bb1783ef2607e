/**
 * The page sample of WCAG-EM step 3: the pages a person chose plus `n` drawn at random from the scan's
 * other pages. The draw is a seeded shuffle, so the same seed over the same pages draws the same sample
 * (the seed is recorded with the assessment). Pure.
 */

/** mulberry32: a small, well-distributed 32-bit generator; its only job is to be repeatable. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `n` distinct pages of `candidates` (minus `chosen`), drawn with `seed`. Candidates are sorted first so
 * the draw does not depend on the order a scan listed its pages in.
 */
export function drawPages(
  candidates: readonly string[],
  chosen: readonly string[],
  n: number,
  seed: number,
): string[] {
  const taken = new Set(chosen);
  const pool = [...new Set(candidates)].filter((u) => !taken.has(u)).sort();
  const next = seededRandom(seed);
  // A partial Fisher-Yates shuffle: the first n places are the draw.
  for (let i = 0; i < Math.min(n, pool.length); i++) {
    const j = i + Math.floor(next() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, Math.min(n, pool.length));
}

/** A scan's page as the sample reads it: its URL as submitted and its address (normalised URL). */
export interface SampleCandidate {
  url: string;
  address: string;
}

/**
 * The pages a sample chooses from, one per address (the first URL the scan gave it), so a URL scanned at
 * several viewports, or `/` beside `/index.html`, is one page: `chosen` kept once per address, and the
 * other addresses' pages to draw from.
 */
export function sampleCandidates(
  pages: readonly SampleCandidate[],
  chosen: readonly string[],
): { chosen: string[]; others: string[] } {
  const addressOf = new Map<string, string>();
  for (const p of pages) if (!addressOf.has(p.url)) addressOf.set(p.url, p.address);
  const taken = new Set<string>();
  const kept: string[] = [];
  for (const url of chosen) {
    const address = addressOf.get(url) ?? url;
    if (taken.has(address)) continue;
    taken.add(address);
    kept.push(url);
  }
  const others: string[] = [];
  for (const p of pages) {
    if (taken.has(p.address)) continue;
    taken.add(p.address);
    others.push(p.url);
  }
  return { chosen: kept, others };
}
