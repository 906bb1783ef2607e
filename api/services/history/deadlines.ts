import { keepQueuedHistory } from './keep.js';
import type { ApiContext } from '../../context.js';
import {
  dueAt,
  effectiveDeadlines,
  type DeadlineDays,
  type DeadlineOverrides,
} from '../../domain/history/deadlines.js';
import { domainErrors } from '../../domain/errors.js';
import { nowIso } from '../../domain/ids.js';
import { DEFAULT_DEADLINES } from '../../domain/history/deadlines.js';
import { recordEvent } from '../../outbox/record.js';
import type { OrgDeadlines, SiteDeadlines } from '../../schemas/history/deadlines.js';
import {
  overdueUnrecorded,
  readDeadlineSettings,
  recordBreach,
  sitesWithOpenIssues,
  writeDeadlineSettings,
} from '../../store/history/deadlines.js';
import { getSite } from '../../store/sites/sites.js';

/** Deadlines per impact (docs/portfolio.md): the org's, a site's overrides, and the sweep of breaches. */

export async function orgDeadlines(ctx: ApiContext, org: string): Promise<OrgDeadlines> {
  const settings = await readDeadlineSettings(ctx.db, org);
  return { days: settings.org?.days ?? DEFAULT_DEADLINES, updated_at: settings.org?.updatedAt ?? null };
}

export async function setOrgDeadlines(
  ctx: ApiContext,
  org: string,
  days: DeadlineDays,
): Promise<OrgDeadlines> {
  await writeDeadlineSettings(ctx.db, org, undefined, days, nowIso());
  return orgDeadlines(ctx, org);
}

/** The deadlines a site's issues are held to; DomainError not_found when the org has no such site. */
export async function siteDeadlines(ctx: ApiContext, org: string, siteId: string): Promise<SiteDeadlines> {
  if (!(await getSite(ctx.db, org, siteId))) throw domainErrors.notFound('site');
  const settings = await readDeadlineSettings(ctx.db, org, siteId);
  const orgDays = settings.org?.days ?? DEFAULT_DEADLINES;
  const overrides = settings.site ?? {};
  return { siteId, org_days: orgDays, overrides, days: effectiveDeadlines(orgDays, overrides) };
}

export async function setSiteDeadlines(
  ctx: ApiContext,
  org: string,
  siteId: string,
  overrides: DeadlineOverrides,
): Promise<SiteDeadlines> {
  if (!(await getSite(ctx.db, org, siteId))) throw domainErrors.notFound('site');
  await writeDeadlineSettings(ctx.db, org, siteId, overrides, nowIso());
  return siteDeadlines(ctx, org, siteId);
}

/** The days a site's issues are held to, without the site check (for reads that made it). */
export async function deadlinesOf(ctx: ApiContext, org: string, siteId: string): Promise<DeadlineDays> {
  const settings = await readDeadlineSettings(ctx.db, org, siteId);
  return effectiveDeadlines(settings.org?.days, settings.site);
}

/**
 * Records `sla.breached` for every open issue past its due date at `now`, once per issue (and start of
 * its count): the breach row and its event are one transaction, and the row's key decides which
 * instance writes it. Returns how many were recorded.
 */
export async function sweepBreaches(ctx: ApiContext, now: Date = new Date(), perSite = 500): Promise<number> {
  const at = nowIso(now);
  let recorded = 0;
  // Every site's history as of now: a scan still queued may have fixed an issue about to be overdue.
  await keepQueuedHistory(ctx.db);
  for (const site of await sitesWithOpenIssues(ctx.db)) {
    const days = await deadlinesOf(ctx, site.org, site.siteId);
    for (const span of await overdueUnrecorded(ctx.db, site, days, at, perSite)) {
      await ctx.db.transaction(async (trx) => {
        if (!(await recordBreach(trx, site, span, at))) return;
        const data = {
          siteId: site.siteId,
          fingerprint: span.fingerprint,
          rule: span.rule,
          impact: span.impact!,
          page: span.pageKey,
          since: span.dueFrom,
          due_at: dueAt(span, days)!,
          days_allowed: days[span.impact!]!,
        };
        await recordEvent(trx, site.org, { type: 'sla.breached', data }, { publicUrl: ctx.config.publicUrl });
        recorded++;
      });
    }
  }
  return recorded;
}
