import type { Request, Response } from 'express';
import type { ApiContext } from '../../../context.js';
import { sitesOverview, type SiteOverview } from '../../../services/sites/history.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { layout } from '../../layout.js';
import { sendPage } from '../../respond.js';
import type { Visitor } from '../../session.js';
import { sparkline } from '../../views/trend-chart.js';
import { decisionBadge, impactBadge, readableCount, shortSha, when } from '../../views/parts.js';
import { IMPACTS } from '../../../../core/impact.js';

/** Sites per page of the overview. */
export const SITES_PER_PAGE = 50;
/** Scans in each site's trend line. */
const TREND_LENGTH = 12;

function siteCard(o: SiteOverview): Html {
  const { site, trend, lastDeploy } = o;
  const latest = trend[trend.length - 1];
  return markup`<li class="card">
    <h2><a href=${`/sites/${site.siteId}`}>${site.name ?? site.siteId}</a></h2>
    ${site.name ? markup`<p class="muted">${site.siteId}</p>` : null}
    ${
      latest
        ? markup`<p>Latest scan of <code>${site.baseBranch}</code>: <a href=${`/scans/${latest.scan_id}`}>${when(latest.created_at)}</a>, ${readableCount(latest.issues, 'issue')}</p>
            <ul class="legend">
              ${IMPACTS.map((i) => markup`<li>${impactBadge(i)} ${latest.by_impact[i]}</li>`)}
            </ul>`
        : markup`<p>No scan of <code>${site.baseBranch}</code> yet.</p>`
    }
    ${sparkline(trend, `Total issues, last ${trend.length} scans`)}
    <p>Last gate decision: ${
      lastDeploy
        ? markup`${decisionBadge(lastDeploy.passed)} <a href=${`/deploys/${lastDeploy.id}`}>commit ${shortSha(lastDeploy.sha)}</a> (${readableCount(lastDeploy.new_issues_total, 'new issue')})`
        : 'none yet'
    }</p>
  </li>`;
}

export async function sitesPage(
  ctx: ApiContext,
  visitor: Visitor,
  req: Request,
  res: Response,
): Promise<void> {
  const after = typeof req.query.after === 'string' ? req.query.after : undefined;
  const rows = await sitesOverview(
    ctx,
    visitor.user.org,
    SITES_PER_PAGE + 1,
    after,
    TREND_LENGTH,
    visitor.user.sites,
  );
  const more = rows.length > SITES_PER_PAGE;
  const shown = rows.slice(0, SITES_PER_PAGE);
  const main = shown.length
    ? markup`<p>${after ? 'More sites' : `Sites of ${visitor.user.org}`}, by name.</p>
        ${
          // The org's page shows every site: not for a session limited to some.
          visitor.user.sites
            ? null
            : markup`<p><a href="/portfolio">All sites together</a>: open issues over time, overdue, the fixes that clear the most, Section 508 figures.</p>`
        }
        <ul class="cards">
          ${shown.map(siteCard)}
        </ul>
        <nav class="pager" aria-label="More sites">
          ${after ? markup`<a href="/">First sites</a>` : null}
          ${more ? markup`<a href=${`/?after=${encodeURIComponent(shown[shown.length - 1].site.siteId)}`}>Next sites</a>` : null}
        </nav>`
    : markup`<p>No sites yet. A site appears with its first scan (<code>POST /api/v1/scans</code>).</p>`;
  sendPage(res, 200, layout({ title: 'Sites', visitor, main }));
}
