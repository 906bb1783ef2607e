import { domainErrors } from '../domain/errors.js';
import { newId, nowIso } from '../domain/ids.js';
import { waiverState } from '../domain/waiver-match.js';
import { recordEvent } from '../events/outbox.js';
import type { ApiContext } from '../context.js';
import type { CreateWaiverBody, Waiver } from '../schemas/waivers.js';
import { getSite } from '../store/sites.js';
import { WaiverRepository, type WaiverRecord } from '../store/waivers.js';
import type { z } from '../schemas/zod.js';

export function presentWaiver(w: WaiverRecord, now = nowIso()): Waiver {
  const status = waiverState(w, now);
  return {
    id: w.id,
    siteId: w.site_id,
    rule: w.rule,
    selector: w.selector,
    url_pattern: w.url_pattern,
    fingerprint: w.fingerprint,
    reason: w.reason,
    expires_at: w.expires_at,
    status,
    active: status === 'active',
    created_at: w.created_at,
    created_by: w.created_by,
    revoked_at: w.revoked_at,
    revoked_by: w.revoked_by,
  };
}

/**
 * Stores a waiver and its `waiver.created` event in one transaction (the API's POST /waivers and the
 * console's "waive" both come here). DomainError not_found when the org has no such site.
 */
export async function createWaiver(
  ctx: ApiContext,
  org: string,
  createdBy: string | null,
  body: z.output<typeof CreateWaiverBody>,
): Promise<Waiver> {
  if (!(await getSite(ctx.db, org, body.siteId))) throw domainErrors.notFound('site');
  const record: WaiverRecord = {
    id: newId('wvr'),
    org,
    site_id: body.siteId,
    rule: body.rule,
    selector: body.selector ?? null,
    url_pattern: body.url_pattern ?? null,
    fingerprint: body.fingerprint?.toLowerCase() ?? null,
    reason: body.reason,
    // Stored in one format (UTC, milliseconds) so it compares correctly as text in SQL.
    expires_at: new Date(body.expires_at).toISOString(),
    created_at: nowIso(),
    created_by: createdBy,
    revoked_at: null,
    revoked_by: null,
  };
  const view = presentWaiver(record);
  await ctx.db.transaction(async (trx) => {
    await new WaiverRepository(trx).insert(record);
    await recordEvent(trx, { org, type: 'waiver.created', data: view });
  });
  ctx.logger.info(
    { waiver_id: record.id, org, site_id: record.site_id, rule: record.rule },
    'waiver created',
  );
  return view;
}
