import type { Knex } from 'knex';
import type { AccessibilityStatement } from '../../domain/statement/statement.js';

/**
 * Marks the final statements whose next review is due by `dueBy` (YYYY-MM-DD) and calls `emit` for each in
 * the same transaction. Only a site's newest final version is reviewed (an older one was replaced). The
 * conditional UPDATE (`review_due_event_at IS NULL`) decides which instance owns a statement, so the event is
 * written once per statement version even with several instances sweeping. Returns how many were marked.
 */
export async function markReviewsDue(
  db: Knex,
  dueBy: string,
  now: string,
  limit: number,
  emit: (trx: Knex.Transaction, org: string, statement: AccessibilityStatement) => Promise<void>,
): Promise<number> {
  const due = await db('statements as s')
    .where('s.status', 'final')
    .whereNull('s.review_due_event_at')
    .andWhere('s.next_review_on', '<=', dueBy)
    .whereNotExists(
      db('statements as newer')
        .whereRaw('newer.org = s.org and newer.site_id = s.site_id and newer.version > s.version')
        .andWhere('newer.status', 'final')
        .select(db.raw('1')),
    )
    .orderBy('s.next_review_on')
    .limit(limit)
    .select<Array<{ id: string; org: string; statement: string }>>('s.id', 's.org', 's.statement');
  let marked = 0;
  for (const row of due) {
    await db.transaction(async (trx) => {
      const updated = await trx('statements')
        .where({ id: row.id, status: 'final' })
        .whereNull('review_due_event_at')
        .update({ review_due_event_at: now });
      if (updated === 1) {
        await emit(trx, row.org, JSON.parse(row.statement) as AccessibilityStatement);
        marked++;
      }
    });
  }
  return marked;
}
