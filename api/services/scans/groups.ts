import type { Knex } from 'knex';
import type { ApiContext } from '../../context.js';
import { domainErrors } from '../../domain/errors.js';
import { newId, nowIso } from '../../domain/ids.js';
import type { CreateScanHead } from '../../schemas/scans/scans.js';
import type { CompleteGroupBody } from '../../schemas/scans/shards.js';
import { reserveOrgPlace } from '../../store/access/org-counts.js';
import { isUniqueViolation } from '../../store/db.js';
import { lockScan } from '../../store/scans/parts.js';
import { releaseGroup, scanIdOfGroup, scanSharding, setScanSharding } from '../../store/scans/shards.js';
import { insertScanRow } from '../../store/scans/writes.js';
import { ensureSite } from '../../store/sites/sites.js';
import { finishScan } from './parts.js';
import { presentCreatedScan, scanCreatedAt, scanHead, type PageSource } from './scans.js';
import { groupAnswer, statusOf } from './shards.js';

/**
 * The group key of a sharded scan: every job of a CI run sends the same key and finds the same scan
 * (the first job opens it), and the final job completes it by that key.
 */

function checkGroupHead(head: CreateScanHead, pages: PageSource): void {
  const errors = [];
  if (head.complete !== false) {
    errors.push({ pointer: '#/complete', detail: 'must be false: a scan named by a group is sent in parts' });
  }
  if (pages.count > 0) {
    errors.push({
      pointer: '#/pages',
      detail: 'must be empty: the pages come in parts that name their shard',
    });
  }
  if (errors.length > 0) throw domainErrors.invalid(errors);
}

/**
 * Opens the scan a group key names on the site, or finds it: every job of a run sends the same request
 * and gets the same scan (`created` tells the first). A group found complete answers the complete scan.
 */
export async function openGroupScan(ctx: ApiContext, org: string, head: CreateScanHead, pages: PageSource) {
  checkGroupHead(head, pages);
  const row = scanHead(head);
  const group = head.scan_group!;
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.transaction(async (trx) => {
        await ensureSite(trx, org, row.siteId, nowIso(), ctx.config.limits.sitesPerOrg);
        const found = await foundGroupScan(trx, org, row.siteId, group);
        if (found) {
          const sharding = await scanSharding(trx, found.id);
          if (found.sha !== row.sha) {
            throw domainErrors.conflict(
              `The group "${group}" names a scan of commit ${found.sha ?? '(none)'}, not of ${row.sha ?? '(none)'}.`,
            );
          }
          if (found.scope !== row.scope) {
            throw domainErrors.conflict(
              `The group "${group}" names a ${found.scope} scan; this request says ${row.scope}.`,
            );
          }
          if (head.shards !== undefined && sharding.shards !== null && head.shards !== sharding.shards) {
            throw domainErrors.conflict(
              `The group "${group}" names a scan of ${sharding.shards} shards; this request says ${head.shards}.`,
            );
          }
          return { created: false, body: await groupAnswer(trx, found, group, sharding.shards) };
        }
        const id = newId('scn');
        const limit = { name: 'open_scans_per_org' as const, value: ctx.config.limits.openScansPerOrg };
        await reserveOrgPlace(trx, 'open scans', org, limit);
        const expiresAt = nowIso(new Date(Date.now() + ctx.config.openScanTtlMs));
        await insertScanRow(trx, org, id, row, { status: 'open', createdAt: scanCreatedAt(), expiresAt });
        await setScanSharding(trx, id, { group, shards: head.shards ?? null });
        const opened = (await lockScan(trx, org, id))!;
        return { created: true, body: await groupAnswer(trx, opened, group, head.shards ?? null) };
      });
    } catch (err) {
      // Two jobs opened the group at once: the other one's scan exists now, and the next round finds it.
      if (attempt < 3 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}

/** The group's scan if it can still be used; an open one past its time gives its key up. */
async function foundGroupScan(trx: Knex.Transaction, org: string, siteId: string, group: string) {
  const id = await scanIdOfGroup(trx, org, siteId, group);
  if (!id) return undefined;
  const scan = (await lockScan(trx, org, id))!;
  const expired = scan.status === 'open' && scan.expiresAt !== null && scan.expiresAt < nowIso();
  if (scan.status === 'deleted' || expired) {
    await releaseGroup(trx, id);
    return undefined;
  }
  return scan;
}

/** Completes the scan a group key names: refused (409, naming them) while counted shards are missing. */
export async function completeGroup(ctx: ApiContext, org: string, body: CompleteGroupBody) {
  const id = await ctx.db.transaction((trx) => scanIdOfGroup(trx, org, body.siteId, body.scan_group));
  if (!id) throw domainErrors.notFound('scan for this group key');
  const { scan, completedNow } = await finishScan(ctx, org, id);
  const { shards } = await scanSharding(ctx.db, id);
  return {
    ...presentCreatedScan(scan),
    status: 'complete' as const,
    scan_group: body.scan_group,
    shards: await statusOf(ctx.db, id, shards),
    completed_now: completedNow,
  };
}
