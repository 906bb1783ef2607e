import { domainErrors } from '../../domain/errors.js';
import { newId, nowIso } from '../../domain/ids.js';
import { waiverState } from '../../../core/waivers/match.js';
import { recordEvent } from '../../outbox/record.js';
import type { ApiContext } from '../../context.js';
import type { CreateWaiverBody, Waiver } from '../../schemas/waivers/waivers.js';
import { getSite } from '../../store/sites/sites.js';
import {
  findWaiver,
  insertWaiver,
  markWaiverRevoked,
  selectWaivers,
  type WaiverRecord,
} from '../../store/waivers/waivers.js';
import { reserveOrgPlace } from '../../store/access/org-counts.js';
import type { z } from '../../schemas/zod.js';

export function presentWaiver(w: WaiverRecord, now = nowIso()): Waiver {
  const status = waiverState(w, now);
  return {
    id: w.id,
    siteId: w.siteId,
    rule: w.rule,
    selector: w.selector,
    url_pattern: w.urlPattern,
    fingerprint: w.fingerprint,
    reason: w.reason,
    reason_category: w.reasonCategory,
    expires_at: w.expiresAt,
    status,
    active: status === 'active',
    created_at: w.createdAt,
    created_by: w.createdBy,
    revoked_at: w.revokedAt,
    revoked_by: w.revokedBy,
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
    siteId: body.siteId,
    rule: body.rule,
    selector: body.selector ?? null,
    urlPattern: body.url_pattern ?? null,
    fingerprint: body.fingerprint?.toLowerCase() ?? null,
    reason: body.reason,
    reasonCategory: body.reason_category,
    // Stored in one format (UTC, milliseconds) so it compares correctly as text in SQL.
    expiresAt: new Date(body.expires_at).toISOString(),
    createdAt: nowIso(),
    createdBy,
    revokedAt: null,
    revokedBy: null,
  };
  const view = presentWaiver(record);
  await ctx.db.transaction(async (trx) => {
    const limit = { name: 'waivers_per_org' as const, value: ctx.config.limits.waiversPerOrg };
    await reserveOrgPlace(trx, 'waivers', org, limit);
    await insertWaiver(trx, record);
    await recordEvent(trx, org, { type: 'waiver.created', data: view }, { publicUrl: ctx.config.publicUrl });
  });
  ctx.logger.info({ waiver_id: record.id, org, site_id: record.siteId, rule: record.rule }, 'waiver created');
  return view;
}

/** One waiver of the org (also after it was revoked or expired). DomainError not_found otherwise. */
export async function getWaiver(ctx: ApiContext, org: string, id: string): Promise<Waiver> {
  const w = await findWaiver(ctx.db, org, id);
  if (!w) throw domainErrors.notFound('waiver');
  return presentWaiver(w);
}

/** A page of the org's waivers, newest first (`limit` rows after the keyset position `after`). */
export async function listWaivers(
  ctx: ApiContext,
  org: string,
  filter: { siteId?: string; active?: boolean },
  limit: number,
  after: { createdAt: string; id: string } | undefined,
  now: string,
): Promise<WaiverRecord[]> {
  return selectWaivers(ctx.db, org, { ...filter, now }, limit, after);
}

/**
 * Revokes a waiver and records `waiver.revoked` in one transaction. Revoking a revoked waiver changes
 * nothing (no second event) and answers the same. DomainError not_found when the org has no such waiver.
 */
export async function revokeWaiver(
  ctx: ApiContext,
  org: string,
  id: string,
  revokedBy: string | null,
): Promise<Waiver> {
  const now = nowIso();
  const revoked = await ctx.db.transaction(async (trx) => {
    if (!(await markWaiverRevoked(trx, org, id, now, revokedBy))) return undefined;
    const w = (await findWaiver(trx, org, id))!;
    await recordEvent(
      trx,
      org,
      { type: 'waiver.revoked', data: presentWaiver(w, now) },
      { publicUrl: ctx.config.publicUrl },
    );
    return w;
  });
  const w = revoked ?? (await findWaiver(ctx.db, org, id));
  if (!w) throw domainErrors.notFound('waiver');
  if (revoked) ctx.logger.info({ waiver_id: w.id, org }, 'waiver revoked');
  return presentWaiver(w, now);
}
