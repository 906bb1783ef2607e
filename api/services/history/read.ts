import { keepQueuedHistory } from './keep.js';
import type { ApiContext } from '../../context.js';
import { dayEnd } from '../../domain/history/days.js';
import { ageDays, dueAt } from '../../domain/history/deadlines.js';
import { historySeries, type HistoryInterval, type HistoryPoint } from '../../domain/history/series.js';
import { domainErrors } from '../../domain/errors.js';
import { nowIso } from '../../domain/ids.js';
import {
  MAX_HISTORY_DAYS,
  type HistoryIssue,
  type HistoryIssueList,
  type SiteHistory,
} from '../../schemas/history/history.js';
import { readDays } from '../../store/history/days.js';
import { listIdentities, spansSince, type IdentityRecord } from '../../store/history/spans.js';
import { getSite } from '../../store/sites/sites.js';
import { deadlinesOf } from './deadlines.js';

/** A site's history and its issues by identity, read from the figures kept as scans complete. */

const DAY_MS = 86_400_000;

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

async function siteOf(ctx: ApiContext, org: string, siteId: string) {
  const site = await getSite(ctx.db, org, siteId);
  if (!site) throw domainErrors.notFound('site');
  return site;
}

export function presentHistoryPoint(p: HistoryPoint) {
  return {
    start: p.start,
    end: p.end,
    open: p.open,
    open_total: p.openTotal,
    new: p.new,
    fixed: p.fixed,
    regressions: p.regressions,
    overdue: p.overdue,
  };
}

/**
 * The series of a site's base branch from `from` to `to` by interval: the kept day figures summed per
 * interval, and the overdue counts under the site's deadlines today (they may change).
 */
export async function siteHistory(
  ctx: ApiContext,
  org: string,
  siteId: string,
  query: { from?: string; to?: string; interval: HistoryInterval },
  now: Date = new Date(),
): Promise<{ body: SiteHistory; points: HistoryPoint[] }> {
  const site = await siteOf(ctx, org, siteId);
  await keepQueuedHistory(ctx.db, { org, siteId });
  const to = query.to ?? nowIso(now).slice(0, 10);
  const from = query.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 89 * DAY_MS).toISOString().slice(0, 10);
  if (from > to || daysBetween(from, to) > MAX_HISTORY_DAYS) {
    throw domainErrors.invalid([
      {
        pointer: '#/from',
        detail: `must be on or before \`to\`, at most ${MAX_HISTORY_DAYS} days before it`,
      },
    ]);
  }
  const ref = { org, siteId };
  const [{ before, days }, spans, deadlines] = await Promise.all([
    readDays(ctx.db, ref, from, to),
    spansSince(ctx.db, ref, `${from}T00:00:00.000Z`, dayEnd(to)),
    deadlinesOf(ctx, org, siteId),
  ]);
  const points = historySeries(
    { from, to, interval: query.interval, now: nowIso(now) },
    before,
    days,
    spans,
    deadlines,
  );
  return {
    body: {
      siteId,
      base_branch: site.baseBranch,
      interval: query.interval,
      from,
      to,
      deadlines,
      points: points.map(presentHistoryPoint),
    },
    points,
  };
}

function presentIdentity(
  r: IdentityRecord,
  deadlines: Awaited<ReturnType<typeof deadlinesOf>>,
  now: string,
): HistoryIssue {
  const open = r.span.endedAt === null;
  const due = open ? dueAt(r.span, deadlines) : null;
  return {
    fingerprint: r.span.fingerprint,
    rule: r.span.rule,
    impact: r.span.impact,
    page: r.span.pageKey,
    status: open ? 'open' : r.span.endedBy!,
    first_seen: r.firstSeen,
    since: r.span.dueFrom,
    fixed_at: r.span.endedBy === 'fixed' ? r.span.endedAt : null,
    regressions: r.regressions,
    age_days: open ? ageDays(r.span, now) : null,
    due_at: due,
    overdue: due !== null && due < now,
  };
}

/** A page of the site's issues by identity (fingerprint order), with their dates and deadlines. */
export async function siteIssueHistory(
  ctx: ApiContext,
  org: string,
  siteId: string,
  query: { status?: 'open' | 'fixed' | 'unscanned'; limit: number; cursor?: string },
  now: Date = new Date(),
): Promise<HistoryIssueList> {
  await siteOf(ctx, org, siteId);
  await keepQueuedHistory(ctx.db, { org, siteId });
  const deadlines = await deadlinesOf(ctx, org, siteId);
  const rows = await listIdentities(
    ctx.db,
    { org, siteId },
    { status: query.status, after: query.cursor },
    query.limit + 1,
  );
  const page = rows.slice(0, query.limit);
  return {
    data: page.map((r) => presentIdentity(r, deadlines, nowIso(now))),
    next_cursor: rows.length > query.limit ? page[page.length - 1].span.fingerprint : null,
  };
}
