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
