import type { Impact } from '../../../core/impact.js';

/**
 * The organisation's view (docs/portfolio.md): each site's figures over a range of days, and their
 * sums per group and for the org. A site got worse when it has more open issues at the range's end
 * than when the range began (by default, this month against the end of last month). Pure.
 */

export type OpenByImpact = Record<Impact | 'unknown', number>;

export interface SiteFigures {
  siteId: string;
  open: OpenByImpact;
  openTotal: number;
  /** Open issues at the end of the day before the range. */
  openBefore: number;
  new: number;
  fixed: number;
  regressions: number;
  /** Open issues past their due date at the range's end (now, when it ends today). */
  overdue: number;
}

/** A group's or the org's sums of its sites' figures. */
export interface PortfolioSummary extends Omit<SiteFigures, 'siteId'> {
  sites: number;
  /** The sites that got worse, by siteId. */
  worse: string[];
}

export const NO_OPEN: OpenByImpact = { critical: 0, serious: 0, moderate: 0, minor: 0, unknown: 0 };

export const total = (open: OpenByImpact) => Object.values(open).reduce((a, b) => a + b, 0);

export function gotWorse(site: Pick<SiteFigures, 'openTotal' | 'openBefore'>): boolean {
  return site.openTotal > site.openBefore;
}

/** The sum of the sites' figures (each site once). */
export function summarise(sites: readonly SiteFigures[]): PortfolioSummary {
  const out: PortfolioSummary = {
    sites: sites.length,
    open: { ...NO_OPEN },
    openTotal: 0,
    openBefore: 0,
    new: 0,
    fixed: 0,
    regressions: 0,
    overdue: 0,
    worse: [],
  };
  for (const s of [...sites].sort((a, b) => (a.siteId < b.siteId ? -1 : 1))) {
    for (const k of Object.keys(out.open) as Array<keyof OpenByImpact>) out.open[k] += s.open[k];
    out.openTotal += s.openTotal;
    out.openBefore += s.openBefore;
    out.new += s.new;
    out.fixed += s.fixed;
    out.regressions += s.regressions;
    out.overdue += s.overdue;
    if (gotWorse(s)) out.worse.push(s.siteId);
  }
  return out;
}

/** The range a view covers by default: from the first of `to`'s month to `to`. */
export function defaultFrom(to: string): string {
  return `${to.slice(0, 7)}-01`;
}

/** The day before a day (UTC). */
export function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}
