import type { ApiContext } from '../../context.js';
import { nowIso } from '../../domain/ids.js';
import { REVIEW_NOTICE_DAYS } from '../../domain/statement/statement.js';
import { recordEvent } from '../../outbox/record.js';
import { markReviewsDue } from '../../store/statement/review-due.js';
import { statementEventData } from './views.js';

const DAY_MS = 86_400_000;

/**
 * Records `statement.review_due` once per statement version whose next review is at most
 * REVIEW_NOTICE_DAYS away (a site's newest final version only); returns how many were recorded.
 */
export async function sweepReviewsDue(ctx: ApiContext, now: Date = new Date()): Promise<number> {
  const dueBy = new Date(now.getTime() + REVIEW_NOTICE_DAYS * DAY_MS).toISOString().slice(0, 10);
  return markReviewsDue(ctx.db, dueBy, nowIso(now), 500, async (trx, org, statement) => {
    await recordEvent(
      trx,
      org,
      { type: 'statement.review_due', data: statementEventData(statement) },
      { publicUrl: ctx.config.publicUrl },
    );
  });
}

/** Days until a review date (negative once it has passed), counted in whole UTC days. */
export function daysUntil(date: string, now: Date = new Date()): number {
  return Math.round(
    (Date.parse(`${date}T00:00:00Z`) - Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`)) / DAY_MS,
  );
}
