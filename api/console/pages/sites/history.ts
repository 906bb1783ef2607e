import type { Request, Response } from 'express';
import type { ApiContext } from '../../../context.js';
import { INTERVALS, type HistoryInterval } from '../../../domain/history/series.js';
import { HISTORY_ISSUE_STATUSES, type HistoryIssue } from '../../../schemas/history/history.js';
import { siteHistory, siteIssueHistory } from '../../../services/history/read.js';
import { issueSightings } from '../../../services/history/sightings.js';
import { requireSite } from '../../../services/sites/pages.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { IMPACTS } from '../../../../core/impact.js';
import { layout } from '../../layout.js';
import { sendPage } from '../../respond.js';
import type { Visitor } from '../../session.js';
import { dataTable, num } from '../../views/data-table.js';
import { historyChart, INTERVAL_CHOICES } from '../../views/history-chart.js';
import { impactBadge, readableCount, selectField } from '../../views/parts.js';

/** The ranges the page offers, in days; the first interval and range are the API's defaults. */
export const HISTORY_RANGES = [90, 30, 365] as const;
export const HISTORY_ISSUES_PER_PAGE = 50;

type Status = (typeof HISTORY_ISSUE_STATUSES)[number];
type Sightings = Awaited<ReturnType<typeof issueSightings>>;

const STATUS_NAMES: Record<Status, string> = {
  open: 'Open',
  fixed: 'Fixed',
  unscanned: 'No longer scanned',
};

interface Choice {
  interval: HistoryInterval;
  days: number;
  status: Status;
  after?: string;
}

/** The page's choices from its address; anything it does not offer reads as the default. */
function choiceOf(req: Request): Choice {
  const q = req.query;
  const days = HISTORY_RANGES.find((d) => String(d) === q.days) ?? HISTORY_RANGES[0];
  const after = typeof q.after === 'string' && /^[0-9a-f]{1,64}$/.test(q.after) ? q.after : undefined;
  return {
    interval: INTERVALS.find((i) => i === q.interval) ?? 'day',
    days,
    status: HISTORY_ISSUE_STATUSES.find((s) => s === q.status) ?? 'open',
    after,
  };
}

function query(c: Choice, extra: Record<string, string> = {}): string {
  const p = new URLSearchParams({ interval: c.interval, days: String(c.days), status: c.status, ...extra });
  return `?${p.toString()}`;
}

/** A GET form: its choices stay in the address, and it carries the other form's choice along. */
function rangeForm(c: Choice): Html {
  return markup`<form method="get" action="#chart" class="filters">
    ${selectField(
      { id: 'h-interval', name: 'interval', label: 'Interval', value: c.interval },
      INTERVAL_CHOICES,
    )}
    ${selectField(
      { id: 'h-days', name: 'days', label: 'Range', value: String(c.days) },
      HISTORY_RANGES.map((d) => [String(d), `Last ${d} days`]),
    )}
    <input type="hidden" name="status" value=${c.status} />
    <div><button type="submit">Show history</button></div>
  </form>`;
}

function statusForm(c: Choice): Html {
  return markup`<form method="get" action="#issues" class="filters">
    ${selectField(
      { id: 'h-status', name: 'status', label: 'Issues', value: c.status },
      HISTORY_ISSUE_STATUSES.map((s) => [s, STATUS_NAMES[s]]),
    )}
    <input type="hidden" name="interval" value=${c.interval} />
    <input type="hidden" name="days" value=${String(c.days)} />
    <div><button type="submit">Show issues</button></div>
  </form>`;
}

const day = (iso: string | null) => (iso ? markup`<time datetime=${iso}>${iso.slice(0, 10)}</time>` : '—');

/** The rule, linked to the scan page filtered to its rule and page, where the issue is shown. */
function ruleLink(i: HistoryIssue, seen: Sightings): Html {
  const s = seen.get(i.fingerprint);
  if (!s) return markup`<code>${i.rule}</code>`;
  const p = new URLSearchParams({ rule: i.rule, page: String(s.pageIndex + 1) });
  return markup`<a href=${`/scans/${s.scanId}?${p.toString()}#issues`}><code>${i.rule}</code></a>`;
}

function overdueCell(i: HistoryIssue): Html | string {
  if (i.due_at === null) return 'no deadline';
  return i.overdue ? markup`<span class="badge failed">overdue</span>` : 'not yet';
}

function issuesTable(c: Choice, issues: HistoryIssue[], seen: Sightings): Html {
  const open = c.status === 'open';
  const columns = open
    ? ['Rule', 'Impact', 'Page', 'First seen', 'Counted from', num('Age (days)'), 'Due', 'Overdue']
    : [
        'Rule',
        'Impact',
        'Page',
        'First seen',
        ...(c.status === 'fixed' ? ['Fixed'] : []),
        num('Regressions'),
      ];
  const rows = issues.map((i) => [
    ruleLink(i, seen),
    impactBadge(i.impact),
    i.page,
    day(i.first_seen),
    ...(open
      ? [day(i.since), i.age_days, day(i.due_at), overdueCell(i)]
      : [...(c.status === 'fixed' ? [day(i.fixed_at)] : []), i.regressions]),
  ]);
  return dataTable(`${STATUS_NAMES[c.status]} issues`, columns, rows, {
    empty: `No ${STATUS_NAMES[c.status].toLowerCase()} issues.`,
    region: 'Issues',
  });
}

function pager(c: Choice, next: string | null): Html | null {
  if (!next && !c.after) return null;
  return markup`<nav class="pager" aria-label="Issue pages">
    ${c.after ? markup`<a href=${`${query(c)}#issues`}>First issues</a>` : null}
    ${next ? markup`<a href=${`${query(c, { after: next })}#issues`}>Next ${HISTORY_ISSUES_PER_PAGE} issues</a>` : null}
  </nav>`;
}

function deadlinesText(d: Record<string, number | null>): string {
  return IMPACTS.map((i) => `${i} ${d[i] === null ? 'none' : `${d[i]} days`}`).join(', ');
}

export function historyPage(ctx: ApiContext) {
  return async (visitor: Visitor, req: Request, res: Response): Promise<void> => {
    const org = visitor.user.org;
    const site = await requireSite(ctx, org, String(req.params.siteId));
    const c = choiceOf(req);
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.parse(`${to}T00:00:00Z`) - (c.days - 1) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const [history, issues] = await Promise.all([
      siteHistory(ctx, org, site.siteId, { from, to, interval: c.interval }),
      siteIssueHistory(ctx, org, site.siteId, {
        status: c.status,
        limit: HISTORY_ISSUES_PER_PAGE,
        cursor: c.after,
      }),
    ]);
    const seen = await issueSightings(ctx, org, site.siteId, issues.data);
    const points = history.points;
    const last = points[points.length - 1];
    const name = site.name ?? site.siteId;
    const deadlines = `Deadlines: ${deadlinesText(history.body.deadlines)}.`;
    const main = markup`<p>The base branch <code>${site.baseBranch}</code> as its full scans left it. ${deadlines}</p>
      <h2 id="chart" tabindex="-1">Open issues over time</h2>
      ${rangeForm(c)}
      ${historyChart(points, {
        caption: `Open issues of ${site.baseBranch} by impact, by ${c.interval}, ${from} to ${to}`,
        days: c.days,
        id: 'history-chart',
      })}
      <h2 id="issues" tabindex="-1">Issues</h2>
      <p>
        ${last ? `${readableCount(last.openTotal, 'issue')} open, ${last.overdue} overdue. ` : null}Each rule
        links to the scan that shows the issue (for a fixed issue, the last scan that had it).
      </p>
      ${statusForm(c)} ${issuesTable(c, issues.data, seen)}
      ${pager(c, issues.next_cursor)}`;
    sendPage(
      res,
      200,
      layout({
        title: `History of ${name}`,
        visitor,
        breadcrumbs: [['Sites', '/'], [name, `/sites/${site.siteId}`], ['History']],
        main,
      }),
    );
  };
}
