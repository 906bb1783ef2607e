import type { Request, Response } from 'express';
import type { ApiContext } from '../../../context.js';
import { INTERVALS, type HistoryInterval } from '../../../domain/history/series.js';
import type { TopFix } from '../../../schemas/portfolio/fixes.js';
import type { Portfolio } from '../../../schemas/portfolio/view.js';
import type { Section508 } from '../../../schemas/portfolio/section508.js';
import { section508 } from '../../../services/portfolio/section508.js';
import { portfolioSeries, portfolioView } from '../../../services/portfolio/view.js';
import { listTags } from '../../../services/sites/tags.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { layout } from '../../layout.js';
import { sendPage } from '../../respond.js';
import type { Visitor } from '../../session.js';
import { dataTable, num } from '../../views/data-table.js';
import { externalLink } from '../../views/external-link.js';
import { historyChart, INTERVAL_CHOICES } from '../../views/history-chart.js';
import { impactBadge, readableCount, selectField } from '../../views/parts.js';

/**
 * The organisation's page (docs/portfolio.md): its sites over a range, in all and per group (tag), the sites
 * that got worse, the overdue, the fixes that clear the most pages and the year's Section 508 figures, from
 * the same services as `GET /api/v1/portfolio` and `/portfolio/section508`.
 */

/** The ranges the page offers, in days (the first is the default). */
export const PORTFOLIO_RANGES = [30, 90, 365] as const;
const DEFAULT_INTERVAL: Record<number, HistoryInterval> = { 30: 'day', 90: 'week', 365: 'month' };
const TOP_FIXES = 5;

interface Choice {
  group: string | undefined;
  days: number;
  interval: HistoryInterval;
  year: number;
}

/** The page's choices from its address; anything it does not offer reads as the default. */
function choiceOf(req: Request, groups: readonly string[], now: Date): Choice {
  const q = req.query;
  const days = PORTFOLIO_RANGES.find((d) => String(d) === q.days) ?? PORTFOLIO_RANGES[0];
  const thisYear = now.getUTCFullYear();
  const year = Number(q.year);
  return {
    group: groups.find((g) => g === q.group),
    days,
    interval: INTERVALS.find((i) => i === q.interval) ?? DEFAULT_INTERVAL[days],
    year: Number.isInteger(year) && year >= 2000 && year <= thisYear ? year : thisYear,
  };
}

function choiceForm(c: Choice, groups: readonly string[], now: Date): Html {
  const years = Array.from({ length: 5 }, (_, i) => String(now.getUTCFullYear() - i));
  return markup`<form method="get" action="/portfolio" class="filters">
    ${selectField({ id: 'p-group', name: 'group', label: 'Sites', value: c.group ?? '' }, [['', 'All sites'], ...groups.map((g): [string, string] => [g, `Group ${g}`])])}
    ${selectField(
      { id: 'p-days', name: 'days', label: 'Range', value: String(c.days) },
      PORTFOLIO_RANGES.map((d) => [String(d), `Last ${d} days`]),
    )}
    ${selectField(
      { id: 'p-interval', name: 'interval', label: 'Interval', value: c.interval },
      INTERVAL_CHOICES,
    )}
    ${selectField(
      { id: 'p-year', name: 'year', label: 'Section 508 year', value: String(c.year) },
      years.map((y) => [y, y]),
    )}
    <div><button type="submit">Show</button></div>
  </form>`;
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
const siteLink = (siteId: string, name: string | null) =>
  markup`<a href=${`/sites/${encodeURIComponent(siteId)}/history`}>${name ?? siteId}</a>`;

function summary(p: Portfolio, days: number): Html {
  const t = p.totals;
  const worse = p.sites.filter((s) => s.worse);
  const figures = `${readableCount(t.sites, 'site')}: ${readableCount(t.open_total, 'open issue')} (${signed(t.change)} in the last ${days} days), ${t.overdue} overdue, ${readableCount(t.regressions, 'regression')}.`;
  const worseSites = worse.length
    ? markup`Got worse: ${worse.map((s, i) => markup`${i > 0 ? ', ' : ''}${siteLink(s.siteId, s.name)}`)}.`
    : 'No site got worse.';
  return markup`<p>${figures} ${worseSites}</p>`;
}

function sitesTable(p: Portfolio): Html {
  return dataTable(
    `Sites, ${p.from} to ${p.to}`,
    [
      'Site',
      'Groups',
      num('Open'),
      num('Change'),
      num('New'),
      num('Fixed'),
      num('Regressions'),
      num('Overdue'),
      'Got worse',
    ],
    p.sites.map((s) => [
      siteLink(s.siteId, s.name),
      s.tags.join(', ') || '—',
      s.open_total,
      signed(s.change),
      s.new,
      s.fixed,
      s.regressions,
      s.overdue,
      s.worse ? markup`<span class="badge failed">worse</span>` : 'no',
    ]),
    { empty: 'No sites yet.' },
  );
}

function groupsTable(p: Portfolio): Html {
  return dataTable(
    `Groups, ${p.from} to ${p.to}`,
    ['Group', num('Sites'), num('Open'), num('Change'), num('Regressions'), num('Overdue'), 'Got worse'],
    p.groups.map((g) => [
      markup`<a href=${`/portfolio?group=${encodeURIComponent(g.group)}`}>${g.group}</a>`,
      g.sites,
      g.open_total,
      signed(g.change),
      g.regressions,
      g.overdue,
      g.worse.join(', ') || '—',
    ]),
    { empty: 'No groups: tag sites (PUT /api/v1/sites/{siteId}/tags) to compare them here.' },
  );
}

/** Where to fix it: the code (a link to it on GitHub when the site names a repository), else its element. */
function fixPlace(f: TopFix): Html {
  if (f.code) return externalLink(f.code, f.path && f.line !== null ? `${f.path}:${f.line}` : f.code);
  if (f.markup) return markup`<code>${f.markup}</code>`;
  return markup`<code>${f.selector ?? '—'}</code>`;
}

function fixSentence(f: TopFix, names: ReadonlyMap<string, string>): Html {
  const rules = f.rules.map((r, i) => markup`${i > 0 ? ', ' : ''}<code>${r}</code>`);
  const clears = `clears ${readableCount(f.page_count, 'page')} (${readableCount(f.issue_count, 'issue')})`;
  const site = siteLink(f.siteId, names.get(f.siteId) ?? null);
  return markup`${impactBadge(f.impact)} ${rules} on ${site}: ${clears}. Fix it at ${fixPlace(f)}.`;
}

function topFixes(fixes: readonly TopFix[], names: ReadonlyMap<string, string>): Html {
  if (fixes.length === 0) return markup`<p>No open issues to fix.</p>`;
  return markup`<ol class="fixes">
    ${fixes.map(
      (f) => markup`<li>
        <p>${fixSentence(f, names)}</p>
        <details>
          <summary>Its pages</summary>
          <ul>
            ${f.pages.map((page) => markup`<li>${externalLink(page, page)}</li>`)}
          </ul>
        </details>
      </li>`,
    )}
  </ol>`;
}

function section508Table(s: Section508): Html {
  const row = (name: Html | string, f: Section508['totals']) => [
    name,
    f.pages_in_scope,
    f.tested_automatically,
    f.assessed_by_people,
    f.fully_conformant,
  ];
  return dataTable(
    `Section 508 figures of ${s.year}`,
    [
      'Site',
      num('Pages in scope'),
      num('Tested automatically'),
      num('Assessed by people'),
      num('Fully conformant'),
    ],
    [...s.sites.map((x) => row(siteLink(x.siteId, null), x)), row(markup`<strong>All</strong>`, s.totals)],
  );
}

export function portfolioPage(ctx: ApiContext) {
  return async (visitor: Visitor, req: Request, res: Response): Promise<void> => {
    const org = visitor.user.org;
    const now = new Date();
    const groups = (await listTags(ctx, org)).data.map((t) => t.tag).sort();
    const c = choiceOf(req, groups, now);
    const to = now.toISOString().slice(0, 10);
    const from = new Date(Date.parse(`${to}T00:00:00Z`) - (c.days - 1) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const [view, points, figures] = await Promise.all([
      portfolioView(ctx, org, { group: c.group, from, to, top: TOP_FIXES }, now),
      portfolioSeries(ctx, org, { group: c.group, from, to, interval: c.interval }, now),
      section508(ctx, org, { year: c.year, group: c.group }, now),
    ]);
    const names = new Map(view.sites.map((s) => [s.siteId, s.name ?? s.siteId]));
    const scope = c.group ? `group ${c.group}` : `all sites of ${org}`;
    const main = markup`${choiceForm(c, groups, now)}
      ${summary(view, c.days)}
      <h2 id="chart" tabindex="-1">Open issues over time</h2>
      ${historyChart(points, {
        caption: `Open issues of ${scope} by impact, by ${c.interval}, ${from} to ${to}`,
        days: c.days,
        id: 'portfolio-chart',
      })}
      <h2 id="fixes" tabindex="-1">The fixes that clear the most</h2>
      ${topFixes(view.totals.top_fixes, names)}
      <h2 id="sites" tabindex="-1">Sites</h2>
      ${sitesTable(view)}
      ${c.group ? null : markup`<h2 id="groups" tabindex="-1">Groups</h2>${groupsTable(view)}`}
      <h2 id="section508" tabindex="-1">Section 508</h2>
      <p>Pages in scope, tested automatically, assessed by people and fully conformant in ${figures.year}.</p>
      ${section508Table(figures)}`;
    sendPage(
      res,
      200,
      layout({
        title: c.group ? `Group ${c.group}` : 'Organisation',
        visitor,
        breadcrumbs: [['Sites', '/'], ['Organisation']],
        main,
      }),
    );
  };
}
