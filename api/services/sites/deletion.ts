import type { ApiContext } from '../../context.js';
import { domainErrors } from '../../domain/errors.js';
import { nowIso } from '../../domain/ids.js';
import { recordEvent } from '../../outbox/record.js';
import { scanUsers } from '../../store/retention.js';
import { deleteScanRows } from '../../store/scans/deletion.js';
import { lockScan } from '../../store/scans/parts.js';
import { deleteSiteRecords, openScanOfSite } from '../../store/sites/deletion.js';
import { getSite } from '../../store/sites/sites.js';

/**
 * Deleting on request. The decision and its `*.deleted` event are one short transaction; a scan's
 * pages and issues go afterwards in batches (a scan marked `deleted` is already invisible, and the
 * retention job finishes any removal a stopped process left behind).
 */

/** Why a scan cannot go yet, in words a caller can act on; null when nothing needs it. */
async function stillNeeded(trx: Parameters<typeof scanUsers>[0], scanId: string): Promise<string | null> {
  const users = await scanUsers(trx, scanId);
  const deploy = users.deploys[0];
  if (deploy) {
    return (
      `Deploy event ${deploy.id} (${deploy.createdAt}) uses this scan as its ${deploy.role} scan; ` +
      "the scan is kept as long as that deploy event (the site's retention.deploy_days)."
    );
  }
  if (users.reports.length > 0) {
    return `VPAT report ${users.reports[0]} uses this scan as evidence; reports are kept, and so are their scans.`;
  }
  return null;
}

export async function deleteScan(ctx: ApiContext, org: string, scanId: string): Promise<void> {
  const deletedAt = nowIso();
  const siteId = await ctx.db.transaction(async (trx) => {
    const scan = await lockScan(trx, org, scanId);
    if (!scan || scan.status === 'deleted') throw domainErrors.notFound('scan');
    const reason = await stillNeeded(trx, scanId);
    if (reason) throw domainErrors.conflict(reason);
    await trx('scans').where({ org, id: scanId }).update({ status: 'deleted' });
    await recordEvent(trx, org, {
      type: 'scan.deleted',
      data: { id: scanId, siteId: scan.siteId, deleted_at: deletedAt },
    });
    return scan.siteId;
  });
  ctx.logger.info({ org, scan_id: scanId, site_id: siteId }, 'scan deleted');
  await deleteScanRows(ctx.db, scanId);
}

/**
 * Deletes a site and everything of it. A scan still receiving parts is the one thing that needs the
 * site: the upload would fail half-way, so that is a conflict until it completes, expires or is deleted.
 */
export async function deleteSite(ctx: ApiContext, org: string, siteId: string): Promise<void> {
  const deletedAt = nowIso();
  const counts = await ctx.db.transaction(async (trx) => {
    if (!(await getSite(trx, org, siteId))) throw domainErrors.notFound('site');
    const open = await openScanOfSite(trx, org, siteId, deletedAt);
    if (open) {
      throw domainErrors.conflict(
        `Scan ${open.id} of this site is still receiving parts (open until ${open.expires_at}): ` +
          'complete or delete it first.',
      );
    }
    const removed = await deleteSiteRecords(trx, org, siteId);
    await recordEvent(trx, org, { type: 'site.deleted', data: { siteId, deleted_at: deletedAt, removed } });
    return removed;
  });
  ctx.logger.info({ org, site_id: siteId, ...counts }, 'site deleted');
}
