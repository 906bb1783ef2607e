import type { ApiContext } from '../../context.js';
import { nowIso } from '../../domain/ids.js';
import { recordEvent } from '../../outbox/record.js';
import { markExpiredWaivers, type ExpiredWaiverRow } from '../../store/waivers/expiry.js';

/** The `data` of a `waiver.expired` event. */
export function expiredWaiverData(w: ExpiredWaiverRow) {
  return {
    id: w.id,
    siteId: w.site_id,
    rule: w.rule,
    reason: w.reason,
    expires_at: w.expires_at,
  };
}

/** Records `waiver.expired` once per waiver that has expired; returns how many were recorded. */
export async function sweepExpiredWaivers(ctx: ApiContext, now: Date = new Date()): Promise<number> {
  return markExpiredWaivers(ctx.db, nowIso(now), 500, async (trx, waiver) => {
    await recordEvent(
      trx,
      waiver.org,
      { type: 'waiver.expired', data: expiredWaiverData(waiver) },
      { publicUrl: ctx.config.publicUrl },
    );
  });
}
