import type { Knex } from 'knex';
import { loadClaimed, type ClaimedDelivery } from './delivery-queue.js';

/**
 * Fair claiming of due deliveries. One org's dead receivers must not hold up another org's deliveries,
 * so the claim takes turns: orgs with the fewest deliveries in flight first, round-robin over their
 * subscriptions, at most `perSubscription` in flight per subscription and `perOrg` per org (counting
 * every worker's leases), oldest first within a subscription. An org's GitHub deliveries (check runs and
 * comments) take turns as one more subscription of that org, their lane `github:<org>`.
 */

/** A delivery's lane: its subscription, or its org's GitHub lane. */
const LANE = "coalesce(subscription_id, 'github:' || org)";

export interface ClaimCandidate {
  id: string;
  org: string;
  /** Its lane: the subscription's id, or `github:<org>`. */
  subscriptionId: string;
  nextAttemptAt: string;
}

export interface FairShares {
  perSubscription: number;
  perOrg: number;
}

export interface InFlight {
  bySubscription: Map<string, number>;
  byOrg: Map<string, number>;
}

/** Which candidates to claim, at most `limit`: pure, so the turn-taking is tested without a database. */
export function fairPick(
  candidates: ClaimCandidate[],
  inFlight: InFlight,
  shares: FairShares,
  limit: number,
): string[] {
  const orgs = new Map<string, Map<string, ClaimCandidate[]>>();
  for (const c of [...candidates].sort((a, b) => a.nextAttemptAt.localeCompare(b.nextAttemptAt))) {
    const subs = orgs.get(c.org) ?? new Map<string, ClaimCandidate[]>();
    orgs.set(c.org, subs);
    const queue = subs.get(c.subscriptionId) ?? [];
    subs.set(c.subscriptionId, queue);
    queue.push(c);
  }
  const sub = new Map(inFlight.bySubscription);
  const org = new Map(inFlight.byOrg);
  // Orgs with less in flight go first; among equals, the one waiting longest (insertion order).
  const order = [...orgs.keys()].sort((a, b) => (org.get(a) ?? 0) - (org.get(b) ?? 0));
  const picked: string[] = [];
  for (let progress = true; progress && picked.length < limit;) {
    progress = false;
    for (const o of order) {
      if (picked.length >= limit) break;
      if ((org.get(o) ?? 0) >= shares.perOrg) continue;
      const subs = orgs.get(o)!;
      // The org's next subscription with a due delivery and room, then it goes to the back.
      for (const [s, queue] of subs) {
        subs.delete(s);
        if (queue.length === 0 || (sub.get(s) ?? 0) >= shares.perSubscription) continue;
        picked.push(queue.shift()!.id);
        sub.set(s, (sub.get(s) ?? 0) + 1);
        org.set(o, (org.get(o) ?? 0) + 1);
        if (queue.length) subs.set(s, queue);
        progress = true;
        break;
      }
    }
  }
  return picked;
}

/** How many deliveries each subscription and org has leased and not yet recorded, on every worker. */
async function inFlightNow(trx: Knex.Transaction, now: string): Promise<InFlight> {
  const rows = await trx('webhook_deliveries')
    .where('status', 'pending')
    .andWhere('locked_until', '>=', now)
    .groupBy('org', trx.raw(LANE))
    .select<Array<{ org: string; lane: string; n: number | string }>>(
      'org',
      trx.raw(`${LANE} as lane`),
      trx.raw('count(*) as n'),
    );
  const bySubscription = new Map<string, number>();
  const byOrg = new Map<string, number>();
  for (const r of rows) {
    bySubscription.set(r.lane, Number(r.n));
    byOrg.set(r.org, (byOrg.get(r.org) ?? 0) + Number(r.n));
  }
  return { bySubscription, byOrg };
}

/**
 * Leases up to `limit` due deliveries to `workerId`, picked fairly. The candidates are each
 * subscription's oldest few (a window function), so a subscription with thousands due does not crowd
 * the others out of the window. The lease is a conditional update: a row another instance leased
 * meanwhile is skipped, never claimed twice.
 */
export async function claimFairly(
  db: Knex,
  workerId: string,
  now: string,
  lockedUntil: string,
  limit: number,
  shares: FairShares,
  targets: { github: boolean } = { github: true },
): Promise<ClaimedDelivery[]> {
  const ids = await db.transaction(async (trx) => {
    const inFlight = await inFlightNow(trx, now);
    const ranked = trx('webhook_deliveries')
      .select('id', 'org', trx.raw(`${LANE} as lane`), 'next_attempt_at')
      .select(trx.raw(`row_number() over (partition by ${LANE} order by next_attempt_at, id) as rn`))
      .where('status', 'pending')
      .andWhere('next_attempt_at', '<=', now)
      .andWhere((w) => {
        w.whereNull('locked_until').orWhere('locked_until', '<', now);
      });
    // An instance without the GitHub App leaves GitHub deliveries to one that has it.
    if (!targets.github) ranked.andWhere('target', 'webhook');
    const rows = await trx
      .from(ranked.as('r'))
      .where('rn', '<=', shares.perSubscription)
      .orderBy('next_attempt_at')
      .limit(Math.max(limit * 20, 1000))
      .select<Array<{ id: string; org: string; lane: string; next_attempt_at: string }>>(
        'id',
        'org',
        'lane',
        'next_attempt_at',
      );
    const candidates = rows.map((r) => ({
      id: r.id,
      org: r.org,
      subscriptionId: r.lane,
      nextAttemptAt: r.next_attempt_at,
    }));
    const picked = fairPick(candidates, inFlight, shares, limit);
    if (picked.length === 0) return [];
    await trx('webhook_deliveries')
      .whereIn('id', picked)
      .andWhere('status', 'pending')
      .andWhere((w) => {
        w.whereNull('locked_until').orWhere('locked_until', '<', now);
      })
      .update({ locked_until: lockedUntil, locked_by: workerId });
    const mine = await trx('webhook_deliveries')
      .whereIn('id', picked)
      .andWhere({ locked_by: workerId, locked_until: lockedUntil })
      .select<Array<{ id: string }>>('id');
    return mine.map((r) => r.id);
  });
  return loadClaimed(db, ids);
}
