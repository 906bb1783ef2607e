import type { Knex } from 'knex';

export interface ExpiredWaiverRow {
  id: string;
  org: string;
  site_id: string;
  rule: string;
  reason: string | null;
  expires_at: string;
  [column: string]: unknown;
}

/**
 * Marks waivers that expired by `now` (and were not revoked) and calls `emit` for each inside the same
 * transaction. The conditional UPDATE (`expired_event_at IS NULL`) decides which instance owns a
 * waiver: only the one whose update changed the row emits, so the event is written exactly once
 * even with several instances sweeping. Returns how many waivers were marked.
 */
export async function markExpiredWaivers(
  db: Knex,
  now: string,
  limit: number,
  emit: (trx: Knex.Transaction, waiver: ExpiredWaiverRow) => Promise<void>,
): Promise<number> {
  if (!(await db.schema.hasTable('waivers'))) return 0;
  const due = (await db('waivers')
    .whereNull('expired_event_at')
    .whereNull('revoked_at')
    .whereNotNull('expires_at')
    .andWhere('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)) as ExpiredWaiverRow[];
  let marked = 0;
  for (const waiver of due) {
    await db.transaction(async (trx) => {
      const updated = await trx('waivers')
        .where({ id: waiver.id })
        .whereNull('expired_event_at')
        .whereNull('revoked_at')
        .update({ expired_event_at: now });
      if (updated === 1) {
        await emit(trx, { ...waiver, expired_event_at: now });
        marked++;
      }
    });
  }
  return marked;
}
