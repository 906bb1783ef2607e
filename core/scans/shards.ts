/**
 * Shards of one scan: which have reported, which are missing, and how to say so. A scan knows its shard
 * count when it was opened with one; without it only a request completes it, and nothing is "missing".
 */

export interface ShardStatus {
  total: number | null;
  reported: number[];
  missing: number[];
}

export function shardStatus(total: number | null, reported: readonly number[]): ShardStatus {
  const done = [...new Set(reported)].sort((a, b) => a - b);
  const missing: number[] = [];
  if (total !== null) for (let i = 1; i <= total; i++) if (!done.includes(i)) missing.push(i);
  return { total, reported: done, missing };
}

/** "shard 3 of 3 has" / "shards 2 and 3 of 4 have", for answers and the gate's reason. */
export function missingShardsText(status: ShardStatus): string {
  const m = status.missing;
  const names = m.length === 1 ? `${m[0]}` : `${m.slice(0, -1).join(', ')} and ${m[m.length - 1]}`;
  return `${m.length === 1 ? 'shard' : 'shards'} ${names} of ${status.total ?? '?'} ${m.length === 1 ? 'has' : 'have'} not reported`;
}

/**
 * A page list split across parallel CI jobs. Every job reads the same list (urls, a URL file, a sitemap)
 * and keeps its own share: page p of the list goes to shard (p mod N) + 1. Dealing the list out like cards
 * keeps the shards within one page of each other in size, and spreads a site's sections (which sitemaps
 * list together, and which cost alike) over every shard instead of giving one job all the slow pages.
 */

export interface Shard {
  /** 1-based. */
  index: number;
  total: number;
}

export const MAX_SHARDS = 1000;

/** `I/N` (`2/4`): the shard's number and the number of shards; a problem text when it is not that. */
export function parseShard(text: string): Shard | string {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) return `must be "I/N" (this job's shard and the number of shards, such as 2/4), got "${text}"`;
  const index = Number(m[1]);
  const total = Number(m[2]);
  if (total < 1 || total > MAX_SHARDS) return `must have 1 to ${MAX_SHARDS} shards, got ${total}`;
  if (index < 1 || index > total) return `must name a shard from 1 to ${total}, got ${index}`;
  return { index, total };
}

/** This shard's pages of the list, in the list's order. */
export function shardOf<T>(pages: readonly T[], shard: Shard): T[] {
  return pages.filter((_, p) => p % shard.total === shard.index - 1);
}
