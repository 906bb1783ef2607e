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
