import { keepQueuedHistory } from '../history/keep.js';
import type { ApiContext } from '../../context.js';
import { dayEnd } from '../../domain/history/days.js';
import { intervalsOf, type HistoryInterval, type HistoryPoint } from '../../domain/history/series.js';
import { effectiveDeadlines } from '../../domain/history/deadlines.js';
import { domainErrors } from '../../domain/errors.js';
import { nowIso } from '../../domain/ids.js';
import { csvTable } from '../../../core/text/csv.js';
import {
  dayBefore,
  defaultFrom,
  gotWorse,
  NO_OPEN,
  summarise,
  total,
  type PortfolioSummary,
  type SiteFigures,
} from '../../domain/portfolio/view.js';
import { MAX_HISTORY_DAYS } from '../../schemas/history/history.js';
import type { TopFix } from '../../schemas/portfolio/fixes.js';
import type { Portfolio } from '../../schemas/portfolio/view.js';
import { figuresAt, orgDeadlineSettings, orgSites, overdueAt } from '../../store/portfolio/figures.js';
import { changesByDay, overdueStartsAndEnds } from '../../store/portfolio/series.js';
import { orgTags } from '../../store/sites/tags.js';
import { groupSites, topFixes } from './fixes.js';

/** The org's view over a range of days, per site, per group (tag) and in all (docs/portfolio.md). */

const DAY_MS = 86_400_000;

function checkRange(from: string, to: string): void {
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (from > to || days > MAX_HISTORY_DAYS)
    throw domainErrors.invalid([
      {
        pointer: '#/from',
        detail: `must be on or before \`to\`, at most ${MAX_HISTORY_DAYS} days before it`,
      },
    ]);
}

/** Overdue open issues per site at `at`: one query per set of deadlines in force (the org's, and each override). */
async function overdueBySite(ctx: ApiContext, org: string, siteIds: readonly string[], at: string) {
  const settings = await orgDeadlineSettings(ctx.db, org);
  const overridden = [...settings.sites.keys()];
  const out = await overdueAt(
    ctx.db,
    org,
    { except: overridden },
    effectiveDeadlines(settings.org, undefined),
    at,
  );
  const inView = new Set(siteIds);
  for (const [siteId, overrides] of settings.sites) {
    if (!inView.has(siteId)) continue;
    const days = effectiveDeadlines(settings.org, overrides);
    for (const [id, n] of await overdueAt(ctx.db, org, { sites: [siteId] }, days, at)) out.set(id, n);
  }
  return out;
}

function presentSummary(s: PortfolioSummary, fixes: TopFix[]) {
  return {
    sites: s.sites,
    open: s.open,
    open_total: s.openTotal,
    open_before: s.openBefore,
    change: s.openTotal - s.openBefore,
    new: s.new,
    fixed: s.fixed,
    regressions: s.regressions,
    overdue: s.overdue,
    worse: s.worse,
    top_fixes: fixes,
  };
}

export async function portfolioView(
  ctx: ApiContext,
  org: string,
  query: { group?: string; from?: string; to?: string; top: number },
  now: Date = new Date(),
): Promise<Portfolio> {
  const to = query.to ?? nowIso(now).slice(0, 10);
  const from = query.from ?? defaultFrom(to);
  checkRange(from, to);
  await keepQueuedHistory(ctx.db, { org });
  const scope = query.group === undefined ? undefined : await groupSites(ctx, org, query.group);
  const sites = await orgSites(ctx.db, org, scope);
  const ids = sites.map((s) => s.siteId);
  const at = dayEnd(to) < nowIso(now) ? dayEnd(to) : nowIso(now);
  const [kept, overdue, tags] = await Promise.all([
    figuresAt(ctx.db, org, scope, { start: dayBefore(from), end: to }),
    overdueBySite(ctx, org, ids, at),
    orgTags(ctx.db, org),
  ]);
  const figures: SiteFigures[] = ids.map((siteId) => {
    const { start, end } = kept.get(siteId) ?? {};
    const open = end?.open ?? { ...NO_OPEN };
    // The range's counts: the totals at its end less those on the day before it.
    const counted = (k: 'new' | 'fixed' | 'regressions') => (end?.totals[k] ?? 0) - (start?.totals[k] ?? 0);
    return {
      siteId,
      open,
      openTotal: total(open),
      openBefore: total(start?.open ?? NO_OPEN),
      new: counted('new'),
      fixed: counted('fixed'),
      regressions: counted('regressions'),
      overdue: overdue.get(siteId) ?? 0,
    };
  });
  const tagsOf = new Map<string, string[]>();
  const groups: Array<{ group: string; sites: string[] }> = [];
  for (const [tag, tagged] of tags) {
    for (const id of tagged) tagsOf.set(id, [...(tagsOf.get(id) ?? []), tag]);
    if (query.group !== undefined && tag !== query.group) continue;
    const inView = tagged.filter((id) => scope === undefined || scope.includes(id));
    if (inView.length > 0) groups.push({ group: tag, sites: inView });
  }
  const byId = new Map(figures.map((f) => [f.siteId, f]));
  return {
    from,
    to,
    group: query.group ?? null,
    totals: presentSummary(summarise(figures), await topFixes(ctx, org, scope, query.top)),
    groups: await Promise.all(
      groups.map(async (g) => ({
        group: g.group,
        ...presentSummary(
          summarise(g.sites.flatMap((id) => byId.get(id) ?? [])),
          await topFixes(ctx, org, g.sites, query.top),
        ),
      })),
    ),
    sites: sites.map((s) => {
      const f = byId.get(s.siteId)!;
      return {
        siteId: s.siteId,
        name: s.name,
        tags: tagsOf.get(s.siteId) ?? [],
        open: f.open,
        open_total: f.openTotal,
        open_before: f.openBefore,
        change: f.openTotal - f.openBefore,
        new: f.new,
        fixed: f.fixed,
        regressions: f.regressions,
        overdue: f.overdue,
        worse: gotWorse(f),
      };
    }),
  };
}

/**
 * The org's (or a group's) open issues per interval of a range, summed over its sites, with the new, fixed,
 * regressions and overdue of each: the org page's chart, from the same figures as the view, in a fixed
 * number of queries whatever the number of intervals (a year by day is 365).
 */
export async function portfolioSeries(
  ctx: ApiContext,
  org: string,
  query: { group?: string; from: string; to: string; interval: HistoryInterval },
  now: Date = new Date(),
): Promise<HistoryPoint[]> {
  checkRange(query.from, query.to);
  await keepQueuedHistory(ctx.db, { org });
  const scope = query.group === undefined ? undefined : await groupSites(ctx, org, query.group);
  const ids = (await orgSites(ctx.db, org, scope)).map((s) => s.siteId);
  const intervals = intervalsOf(query.from, query.to, query.interval);
  const before = dayBefore(query.from);
  const [atStart, days, overdue] = await Promise.all([
    figuresAt(ctx.db, org, scope, { start: before, end: before }),
    changesByDay(ctx.db, org, scope, { from: query.from, to: query.to }),
    overdueSeries(ctx, org, { ids, scope }, intervals, nowIso(now)),
  ]);
  // The open issues at the range's start, then each kept day's change on to each interval's end.
  const open = { ...NO_OPEN };
  for (const site of atStart.values())
    for (const k of Object.keys(open) as Array<keyof typeof open>) open[k] += site.start?.open[k] ?? 0;
  let next = 0;
  return intervals.map(({ start, end }, i) => {
    const c = { new: 0, fixed: 0, regressions: 0 };
    for (; next < days.length && days[next].day <= end; next++) {
      const day = days[next];
      for (const k of Object.keys(open) as Array<keyof typeof open>) open[k] += day.change[k];
      c.new += day.counts.new;
      c.fixed += day.counts.fixed;
      c.regressions += day.counts.regressions;
    }
    return { start, end, open: { ...open }, openTotal: total(open), ...c, overdue: overdue[i] };
  });
}

const dayNumberOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/**
 * The overdue open issues of the sites in view at each interval's end (at `now` for one that ends later):
 * the days spans became overdue and ended under each set of deadlines in force, counted up to each end.
 */
async function overdueSeries(
  ctx: ApiContext,
  org: string,
  view: { ids: readonly string[]; scope: readonly string[] | undefined },
  intervals: Array<{ start: string; end: string }>,
  now: string,
): Promise<number[]> {
  const settings = await orgDeadlineSettings(ctx.db, org);
  const span = [`${intervals[0].start}T00:00:00.000Z`, dayEnd(intervals[intervals.length - 1].end)] as const;
  const byOrg =
    view.scope === undefined
      ? { except: [...settings.sites.keys()] }
      : { sites: view.ids.filter((id) => !settings.sites.has(id)) };
  const sets = [
    await overdueStartsAndEnds(ctx.db, org, byOrg, effectiveDeadlines(settings.org, undefined), ...span),
  ];
  for (const id of view.ids) {
    const overrides = settings.sites.get(id);
    if (!overrides) continue;
    const days = effectiveDeadlines(settings.org, overrides);
    sets.push(await overdueStartsAndEnds(ctx.db, org, { sites: [id] }, days, ...span));
  }
  const upTo = (day: number) =>
    sets.reduce((sum, set) => {
      for (const [d, n] of set.starts) if (d <= day) sum += n;
      for (const [d, n] of set.ends) if (d <= day) sum -= n;
      return sum;
    }, 0);
  // The interval still running is counted at `now`, as the view counts it.
  const current = intervals.some((i) => dayEnd(i.end) >= now)
    ? await overdueBySite(ctx, org, view.ids, now)
    : new Map<string, number>();
  return intervals.map(({ end }) =>
    dayEnd(end) >= now
      ? view.ids.reduce((sum, id) => sum + (current.get(id) ?? 0), 0)
      : upTo(dayNumberOf(end)),
  );
}

export function portfolioCsv(p: Portfolio): string {
  return csvTable(
    [
      'site_id',
      'from',
      'to',
      'tags',
      'open_total',
      'open_critical',
      'open_serious',
      'open_moderate',
      'open_minor',
      'open_unknown',
      'open_before',
      'change',
      'new',
      'fixed',
      'regressions',
      'overdue',
      'worse',
    ],
    p.sites.map((s) => [
      s.siteId,
      p.from,
      p.to,
      s.tags.join(';'),
      s.open_total,
      s.open.critical,
      s.open.serious,
      s.open.moderate,
      s.open.minor,
      s.open.unknown,
      s.open_before,
      s.change,
      s.new,
      s.fixed,
      s.regressions,
      s.overdue,
      s.worse ? 'true' : 'false',
    ]),
  );
}
