import { domainErrors } from '../../domain/errors.js';
import { nowIso } from '../../domain/ids.js';
import type { ApiContext } from '../../context.js';
import { recordEvent } from '../../outbox/record.js';
import type { ClaimAccepted } from '../../schemas/gate/claims.js';
import { acceptDeployClaim, claimHistory, type ClaimHistoryEntry } from '../../store/gate/claims.js';
import { getSite } from '../../store/sites/sites.js';
import { findDeployRecord } from '../../store/gate/deploys.js';

/**
 * A person accepts the new text of a claimed fix the gate answered `needs_person` (a text rule: an alt or a
 * label a machine cannot judge). Recorded once, with the name the person typed (a person signs, not a key:
 * docs/vpat.md) and the time, with its `deploy.claim_accepted` event.
 */
export async function acceptClaim(
  ctx: ApiContext,
  org: string,
  key: { deployId: string; fingerprint: string },
  name: string,
): Promise<ClaimAccepted> {
  const at = nowIso();
  const by = name.trim();
  const accepted = await ctx.db.transaction(async (trx) => {
    const outcome = await acceptDeployClaim(trx, { org, ...key }, by, at);
    if (outcome === 'missing') throw domainErrors.notFound('claim');
    if (outcome === 'not_needed')
      throw domainErrors.conflict('Only a claim answered `needs_person` is accepted by a person.');
    if (outcome === 'already') throw domainErrors.conflict('This claim was accepted already.');
    const record = await findDeployRecord(trx, org, key.deployId);
    const claim = record?.claims?.items.find((c) => c.fingerprint === key.fingerprint);
    if (!record || !claim) throw domainErrors.notFound('claim');
    const data: ClaimAccepted = { deploy_id: record.id, siteId: record.siteId, claim };
    await recordEvent(trx, org, { type: 'deploy.claim_accepted', data }, { publicUrl: ctx.config.publicUrl });
    return data;
  });
  ctx.logger.info({ deploy_id: key.deployId, fingerprint: key.fingerprint, org }, 'claimed fix accepted');
  return accepted;
}

/** An issue's history of claims on a site: who claimed to fix it (agent, model, session), the answers. */
export async function readClaimHistory(
  ctx: ApiContext,
  org: string,
  siteId: string,
  fingerprint: string,
): Promise<{ data: ClaimHistoryEntry[] }> {
  if (!(await getSite(ctx.db, org, siteId))) throw domainErrors.notFound('site');
  return { data: await claimHistory(ctx.db, org, siteId, fingerprint, 100) };
}
