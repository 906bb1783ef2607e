import type { Request, Response } from 'express';
import { DomainError } from '../../../domain/errors.js';
import { waiverState } from '../../../../core/waivers/match.js';
import { nowIso } from '../../../domain/ids.js';
import type { ApiContext } from '../../../context.js';
import { deployHistory, siteTrend } from '../../../services/sites/history.js';
import { changeSiteSettings, requireSite, siteScans, siteWaivers } from '../../../services/sites/pages.js';
import type { DeploySummary } from '../../../schemas/gate/deploy-history.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { layout } from '../../layout.js';
import { redirectAfterPost, sendPage } from '../../respond.js';
import {
  generateReportAction,
  reportsAndAssessments,
  type SectionError,
  startAssessmentAction,
} from '../assessments/site-section.js';
import { hasScope, type Visitor } from '../../session.js';
import { statementsSection } from '../statement/site-section.js';
import { encodePageCursor, timeIdCursor } from '../../views/cursor.js';
import { dataTable, num } from '../../views/data-table.js';
import { decisionBadge, shortSha, when, type FieldProblem } from '../../views/parts.js';
import { IMPACTS } from '../../../../core/impact.js';
import { trendChart } from '../../views/trend-chart.js';
import {
  parseSettings,
  retentionSummary,
  settingsForm,
  settingsValues,
  type SettingsValues,
} from './site-settings.js';

type ScanRow = Awaited<ReturnType<typeof siteScans>>[number];
type WaiverRow = Awaited<ReturnType<typeof siteWaivers>>[number];

const PER_TABLE = 20;

function historyTable(rows: DeploySummary[]): Html {
  return dataTable(
    'Gate decisions, newest first',
    ['Decision', 'Commit', 'Ref', num('New'), num('Fixed'), num('Waived'), 'When'],
    rows.map((d) => [
      decisionBadge(d.passed),
      markup`<a href=${`/deploys/${d.id}`}>${shortSha(d.sha)}</a>`,
      d.ref ?? '—',
      d.counts.new,
      d.counts.fixed,
      d.counts.waived,
      when(d.created_at),
    ]),
    { empty: 'No gate decisions yet.', region: 'Gate history', rowHeader: 1 },
  );
}

function scansTable(rows: ScanRow[]): Html {
  return dataTable(
    'Scans, newest first',
    ['When', 'Commit', 'Branch', num('Pages'), ...IMPACTS.map((i) => num(i)), num('Total')],
    rows.map((s) => [
      markup`<a href=${`/scans/${s.id}`}>${when(s.createdAt)}</a>`,
      shortSha(s.sha),
      s.branch ?? '—',
      s.pageCount,
      ...IMPACTS.map((i) => s.summary.by_impact[i]),
      s.issueCount,
    ]),
    { empty: 'No scans yet.', region: 'Scans' },
  );
}

function waiverScope(w: WaiverRow): Html {
  return markup`${w.fingerprint ? markup`issue <code>${w.fingerprint.slice(0, 12)}</code>` : null}
    ${w.selector ? markup` element <code>${w.selector}</code>` : null}
    ${w.urlPattern ? markup` pages <code>${w.urlPattern}</code>` : null}
    ${!w.fingerprint && !w.selector && !w.urlPattern ? 'every issue of the rule' : null}`;
}

function waiversTable(rows: WaiverRow[]): Html {
  const now = nowIso();
  return dataTable(
    'Waivers, newest first',
    ['Rule', 'Applies to', 'Reason', 'Expires', 'Status'],
    rows.map((w) => [
      markup`<code>${w.rule}</code>`,
      waiverScope(w),
      w.reason ?? '—',
      w.expiresAt ? when(w.expiresAt) : '—',
      waiverState(w, now),
    ]),
    { empty: 'No waivers.', region: 'Waivers' },
  );
}

function pager(
  label: string,
  param: string,
  siteId: string,
  rows: { length: number },
  cursor: string | null,
): Html | null {
  if (!cursor) return null;
  return markup`<nav class="pager" aria-label=${label}>
    <a href=${`/sites/${siteId}?${param}=${cursor}#${param}`}>Older ${label.toLowerCase()}</a>
  </nav>`;
}

async function render(
  ctx: ApiContext,
  visitor: Visitor,
  req: Request,
  res: Response,
  form?: { values: SettingsValues; problems: FieldProblem[] },
  sectionError: SectionError | null = null,
): Promise<void> {
  const org = visitor.user.org;
  const site = await requireSite(ctx, org, String(req.params.siteId));
  const [trend, deploys, scans, waivers] = await Promise.all([
    siteTrend(ctx, org, site.siteId, 30),
    deployHistory(ctx, org, { siteId: site.siteId }, PER_TABLE + 1, timeIdCursor(req.query.deploys)),
    siteScans(ctx, org, site.siteId, PER_TABLE + 1, timeIdCursor(req.query.scans)),
    siteWaivers(ctx, org, site.siteId, 50),
  ]);
  const next = <T>(rows: T[], key: (r: T) => Array<string | number>) =>
    rows.length > PER_TABLE ? encodePageCursor(key(rows[PER_TABLE - 1])) : null;
  const main = markup`<dl class="facts">
      <dt>Site id</dt>
      <dd><code>${site.siteId}</code></dd>
      <dt>Base branch</dt>
      <dd><code>${site.baseBranch}</code></dd>
      <dt>Repository</dt>
      <dd>${site.repository ?? '—'}</dd>
      <dt>Address</dt>
      <dd>${site.url ?? '—'}</dd>
      <dt>Retention</dt>
      <dd>${retentionSummary(site.retention)}</dd>
    </dl>
    <h2 id="trend">Trend</h2>
    ${trendChart(trend.points, site.baseBranch, 'trend-chart')}
    <p>
      <a href=${`/sites/${site.siteId}/history`}>History of ${site.baseBranch}</a>: open issues by day, week or
      month, new, fixed and regressions, and each issue’s age and due date.
    </p>
    <h2 id="deploys">Gate history</h2>
    ${historyTable(deploys.slice(0, PER_TABLE))}
    ${pager(
      'Gate history',
      'deploys',
      site.siteId,
      deploys,
      next(deploys, (d) => [d.created_at, d.id]),
    )}
    <h2 id="scans">Scans</h2>
    ${scansTable(scans.slice(0, PER_TABLE))}
    ${pager(
      'Scans',
      'scans',
      site.siteId,
      scans,
      next(scans, (s) => [s.createdAt, s.id]),
    )}
    ${await reportsAndAssessments(ctx, visitor, site.siteId, sectionError)}
    ${await statementsSection(ctx, visitor, site.siteId)}
    <h2 id="waivers">Waivers</h2>
    ${waiversTable(waivers)}
    <h2 id="settings">Settings</h2>
    ${
      hasScope(visitor, 'manage')
        ? settingsForm(site.siteId, visitor.csrf, form?.values ?? settingsValues(site), form?.problems ?? [])
        : markup`<p>Changing settings needs a key with the “manage” scope.</p>`
    }`;
  const title = site.name ?? site.siteId;
  sendPage(
    res,
    form || sectionError ? 400 : 200,
    layout({ title, visitor, breadcrumbs: [['Sites', '/'], [title]], main }),
  );
}

export function sitePage(ctx: ApiContext) {
  return (visitor: Visitor, req: Request, res: Response) => render(ctx, visitor, req, res);
}

export const siteAssessmentAction = (ctx: ApiContext) =>
  startAssessmentAction(ctx, (visitor, req, res, error) => render(ctx, visitor, req, res, undefined, error));

export const siteReportAction = (ctx: ApiContext) =>
  generateReportAction(ctx, (visitor, req, res, error) => render(ctx, visitor, req, res, undefined, error));

export function siteSettingsAction(ctx: ApiContext) {
  return async (visitor: Visitor, req: Request, res: Response) => {
    const siteId = String(req.params.siteId);
    const parsed = parseSettings(req);
    if (!parsed.patch) return render(ctx, visitor, req, res, parsed);
    try {
      await changeSiteSettings(ctx, visitor.user.org, siteId, parsed.patch);
    } catch (err) {
      // A value the form could not judge alone (a repository outside the org's installations): shown
      // beside its field like the form's own problems.
      if (!(err instanceof DomainError) || err.kind !== 'invalid' || !err.errors) throw err;
      const problems = err.errors.map((e) => ({ field: e.pointer.replace(/^#\//, ''), message: e.detail }));
      return render(ctx, visitor, req, res, { values: parsed.values, problems });
    }
    redirectAfterPost(res, `/sites/${encodeURIComponent(siteId)}#settings`);
  };
}
