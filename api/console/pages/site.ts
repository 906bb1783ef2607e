import type { Request, Response } from 'express';
import { DomainError } from '../../domain/errors.js';
import { waiverState } from '../../domain/waiver-match.js';
import { nowIso } from '../../domain/ids.js';
import type { ApiContext } from '../../context.js';
import { deployHistory, siteTrend } from '../../services/site-history.js';
import {
  changeSiteSettings,
  requireSite,
  siteScans,
  siteWaivers,
  type ScanRecord,
  type WaiverRecord,
} from '../../services/site-pages.js';
import type { DeploySummary } from '../../schemas/deploy-history.js';
import { markup, type Html } from '../html.js';
import { layout } from '../layout.js';
import { redirectAfterPost, sendPage } from '../respond.js';
import { hasScope, type Visitor } from '../session.js';
import { encodePageCursor, timeIdCursor } from '../views/cursor.js';
import { decisionBadge, IMPACTS, shortSha, tableWrap, when, type FieldProblem } from '../views/parts.js';
import { trendChart } from '../views/trend-chart.js';
import {
  parseSettings,
  retentionSummary,
  settingsForm,
  settingsValues,
  type SettingsValues,
} from './site-settings.js';

const PER_TABLE = 20;

function historyTable(rows: DeploySummary[]): Html {
  if (rows.length === 0) return markup`<p>No gate decisions yet.</p>`;
  return tableWrap(
    'Gate history',
    markup`<table>
      <caption>
        Gate decisions, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">Decision</th>
          <th scope="col">Commit</th>
          <th scope="col">Ref</th>
          <th scope="col" class="num">New</th>
          <th scope="col" class="num">Fixed</th>
          <th scope="col" class="num">Waived</th>
          <th scope="col">When</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (d) =>
            markup`<tr>
              <td>${decisionBadge(d.passed)}</td>
              <th scope="row"><a href=${`/deploys/${d.id}`}>${shortSha(d.sha)}</a></th>
              <td>${d.ref ?? '—'}</td>
              <td class="num">${d.counts.new}</td>
              <td class="num">${d.counts.fixed}</td>
              <td class="num">${d.counts.waived}</td>
              <td>${when(d.created_at)}</td>
            </tr>`,
        )}
      </tbody>
    </table>`,
  );
}

function scansTable(rows: ScanRecord[]): Html {
  if (rows.length === 0) return markup`<p>No scans yet.</p>`;
  return tableWrap(
    'Scans',
    markup`<table>
      <caption>
        Scans, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Commit</th>
          <th scope="col">Branch</th>
          <th scope="col" class="num">Pages</th>
          ${IMPACTS.map((i) => markup`<th scope="col" class="num">${i}</th>`)}
          <th scope="col" class="num">Total</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (s) =>
            markup`<tr>
              <th scope="row"><a href=${`/scans/${s.id}`}>${when(s.createdAt)}</a></th>
              <td>${shortSha(s.sha)}</td>
              <td>${s.branch ?? '—'}</td>
              <td class="num">${s.pageCount}</td>
              ${IMPACTS.map((i) => markup`<td class="num">${s.summary.by_impact[i]}</td>`)}
              <td class="num">${s.issueCount}</td>
            </tr>`,
        )}
      </tbody>
    </table>`,
  );
}

function waiversTable(rows: WaiverRecord[]): Html {
  if (rows.length === 0) return markup`<p>No waivers.</p>`;
  const now = nowIso();
  return tableWrap(
    'Waivers',
    markup`<table>
      <caption>
        Waivers, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">Rule</th>
          <th scope="col">Applies to</th>
          <th scope="col">Reason</th>
          <th scope="col">Expires</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (w) =>
            markup`<tr>
              <th scope="row"><code>${w.rule}</code></th>
              <td>
                ${w.fingerprint ? markup`issue <code>${w.fingerprint.slice(0, 12)}</code>` : null}
                ${w.selector ? markup` element <code>${w.selector}</code>` : null}
                ${w.urlPattern ? markup` pages <code>${w.urlPattern}</code>` : null}
                ${!w.fingerprint && !w.selector && !w.urlPattern ? 'every issue of the rule' : null}
              </td>
              <td>${w.reason ?? '—'}</td>
              <td>${w.expiresAt ? when(w.expiresAt) : '—'}</td>
              <td>${waiverState(w, now)}</td>
            </tr>`,
        )}
      </tbody>
    </table>`,
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
    <h2 id="waivers">Waivers</h2>
    ${waiversTable(waivers)}
    <h2 id="settings">Settings</h2>
    ${
      hasScope(visitor, 'manage')
        ? settingsForm(site.siteId, visitor.csrf, form?.values ?? settingsValues(site), form?.problems ?? [])
        : markup`<p>Changing settings needs a key with the “manage” scope.</p>`
    }`;
  const title = site.name ?? site.siteId;
  sendPage(res, form ? 400 : 200, layout({ title, visitor, breadcrumbs: [['Sites', '/'], [title]], main }));
}

export function sitePage(ctx: ApiContext) {
  return (visitor: Visitor, req: Request, res: Response) => render(ctx, visitor, req, res);
}

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
