import type { Request, Response } from 'express';
import type { ApiContext } from '../../../context.js';
import { browseScan, type BrowsedIssue, type ScanBrowse } from '../../../services/scans/browse.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { layout } from '../../layout.js';
import { sendPage } from '../../respond.js';
import type { Visitor } from '../../session.js';
import { decodePageCursor, encodePageCursor } from '../../views/cursor.js';
import { impactBadge, readableCount, shortSha, tableWrap, when } from '../../views/parts.js';
import { IMPACTS } from '../../../../core/impact.js';
import { atViewport } from '../../../../core/text/wording.js';
import { PAGE_SELECT_MAX, scanFilters } from './scan-filters.js';
import { externalLink } from '../../views/external-link.js';
import { pictureFact } from '../../views/screenshot.js';
import { consoleScreenshots, type IssueScreenshot } from '../../../services/scans/screenshot-links.js';

/** What the scan page filters by: the browse service's filter. */
type Filter = ScanBrowse['filter'];

export const ISSUES_PER_PAGE = 50;
/** Pages listed at once (those with the most issues); the page filter reaches every page. */
const PAGES_LISTED = 50;

const IMPACT_FILTERS = [...IMPACTS, 'unknown'] as const;

export function filterOf(req: Request): Filter {
  const q = req.query;
  const impact = IMPACT_FILTERS.find((i) => i === q.impact);
  const rule = typeof q.rule === 'string' && q.rule.length > 0 && q.rule.length <= 200 ? q.rule : undefined;
  const page = typeof q.page === 'string' && /^\d{1,6}$/.test(q.page) ? Number(q.page) - 1 : undefined;
  return { impact, rule, pageIndex: page };
}

export function filterQuery(f: Filter, extra: Record<string, string> = {}): string {
  const p = new URLSearchParams();
  if (f.impact) p.set('impact', f.impact);
  if (f.rule) p.set('rule', f.rule);
  if (f.pageIndex !== undefined) p.set('page', String(f.pageIndex + 1));
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
}

function pagesTable(b: ScanBrowse, f: Filter): Html {
  const listed = [...b.pages]
    .sort((x, y) => y.issueCount - x.issueCount || x.index - y.index)
    .slice(0, PAGES_LISTED);
  // Only a scan that named viewports has the column: a page at two viewports is two rows.
  const viewports = listed.some((p) => p.viewport);
  return markup`${
    b.scan.pageCount > PAGES_LISTED
      ? markup`<p>The ${PAGES_LISTED} pages with the most issues, of ${b.scan.pageCount}; the page filter below reaches every page.</p>`
      : null
  }
  ${tableWrap(
    'Pages',
    markup`<table>
      <caption>
        Pages and their issues
      </caption>
      <thead>
        <tr>
          <th scope="col" class="num">No.</th>
          <th scope="col">Page</th>
          ${viewports ? markup`<th scope="col">Viewport</th>` : null}
          <th scope="col">Title</th>
          <th scope="col" class="num">HTTP</th>
          <th scope="col" class="num">Issues</th>
        </tr>
      </thead>
      <tbody>
        ${listed.map(
          (p) =>
            markup`<tr>
              <td class="num">${p.index + 1}</td>
              <th scope="row">
                <a href=${`${filterQuery({ ...f, pageIndex: p.index })}#issues`}>${p.url}</a>
              </th>
              ${viewports ? markup`<td>${p.viewport ?? '—'}</td>` : null}
              <td>${p.title ?? '—'}</td>
              <td class="num">${p.httpStatus ?? '—'}</td>
              <td class="num">${p.issueCount}</td>
            </tr>`,
        )}
      </tbody>
    </table>`,
  )}`;
}

function groupsTable(b: ScanBrowse, f: Filter): Html {
  if (b.groups.length === 0) return markup`<p>No issues match these filters.</p>`;
  return tableWrap(
    'Issues by rule',
    markup`<table>
      <caption>
        Issues by rule${f.impact || f.pageIndex !== undefined ? ' (filtered)' : ''}
      </caption>
      <thead>
        <tr>
          <th scope="col">Rule</th>
          <th scope="col">Impact</th>
          <th scope="col">WCAG criteria</th>
          <th scope="col" class="num">Issues</th>
          <th scope="col">Help</th>
        </tr>
      </thead>
      <tbody>
        ${b.groups.map(
          (g) =>
            markup`<tr>
              <th scope="row"><a href=${`${filterQuery({ ...f, rule: g.rule })}#issues`}>${g.rule}</a></th>
              <td>${impactBadge(g.impact)}</td>
              <td>${g.wcag.length ? g.wcag.join(', ') : '—'}</td>
              <td class="num">${g.count}</td>
              <td>${g.helpUrl ? externalLink(g.helpUrl, `About ${g.rule}`) : '—'}</td>
            </tr>`,
        )}
      </tbody>
    </table>`,
  );
}

function issueItem(i: BrowsedIssue, pageUrl: string, picture: Html | null): Html {
  return markup`<li class="issue">
    <p>
      ${impactBadge(i.impact)} ${i.waiverId ? markup`<span class="badge waived">waived</span> ` : null}
      ${i.kind === 'incomplete' ? markup`<span class="muted">needs review</span> ` : null}${i.message ?? i.rule}
    </p>
    <dl class="facts">
      <dt>Page</dt>
      <dd>${pageUrl}</dd>
      ${
        i.selector
          ? markup`<dt>Element</dt>
              <dd><code>${i.selector}</code></dd>`
          : null
      }
      ${picture}
      ${
        i.html
          ? markup`<dt>HTML</dt>
              <dd>
                <pre><code>${i.html}</code></pre>
              </dd>`
          : null
      }
      ${
        i.wcag.length
          ? markup`<dt>WCAG</dt>
              <dd>${i.wcag.join(', ')}</dd>`
          : null
      }
      ${
        i.source
          ? markup`<dt>Source</dt>
              <dd><code>${i.source.path}${i.source.line ? `:${i.source.line}` : ''}</code></dd>`
          : null
      }
      ${
        i.waiverId
          ? markup`<dt>Waiver</dt>
              <dd><code>${i.waiverId}</code></dd>`
          : null
      }
    </dl>
  </li>`;
}

function issueList(b: ScanBrowse, shown: BrowsedIssue[], shots: Map<number, IssueScreenshot>): Html {
  const urls = new Map([...b.pageOf].map(([index, p]) => [index, atViewport(p.url, p.viewport)]));
  const byRule = new Map<string, BrowsedIssue[]>();
  for (const i of shown) byRule.set(i.rule, [...(byRule.get(i.rule) ?? []), i]);
  return markup`${[...byRule].map(
    ([rule, issues]) =>
      markup`<section aria-labelledby=${`rule-${rule}`}>
        <h3 id=${`rule-${rule}`}>
          ${rule} <span class="muted">(${readableCount(issues.length, 'issue')} on this screen)</span>
        </h3>
        <ol class="issues">
          ${issues.map((i) => issueItem(i, urls.get(i.pageIndex) ?? '', pictureFact(shots.get(i.id))))}
        </ol>
      </section>`,
  )}`;
}

function pager(f: Filter, cursor: string | null, continued: boolean): Html | null {
  if (!cursor && !continued) return null;
  return markup`<nav class="pager" aria-label="Issue pages">
    ${continued ? markup`<a href=${`${filterQuery(f)}#issues`}>First issues</a>` : null}
    ${cursor ? markup`<a href=${`${filterQuery(f, { after: cursor })}#issues`}>Next ${ISSUES_PER_PAGE} issues</a>` : null}
  </nav>`;
}

export function scanPage(ctx: ApiContext) {
  return async (visitor: Visitor, req: Request, res: Response): Promise<void> => {
    // (rule, impact or '' for none, id) of the last issue on the previous screen.
    const rawAfter = decodePageCursor(req.query.after, 3);
    const after = rawAfter
      ? {
          rule: String(rawAfter[0]),
          impact: rawAfter[1] === '' ? null : String(rawAfter[1]),
          id: Number(rawAfter[2]),
        }
      : undefined;
    const b = await browseScan(
      ctx,
      visitor.user.org,
      String(req.params.id),
      filterOf(req),
      ISSUES_PER_PAGE + 1,
      PAGE_SELECT_MAX,
      after,
    );
    const f = b.filter;
    const shown = b.issues.slice(0, ISSUES_PER_PAGE);
    const last = shown[shown.length - 1];
    const cursor =
      b.issues.length > ISSUES_PER_PAGE && last
        ? encodePageCursor([last.rule, last.impact ?? '', last.id])
        : null;
    const s = b.scan;
    const shots = await consoleScreenshots(
      ctx,
      s.id,
      shown.map((i) => i.id),
    );
    const main = markup`<dl class="facts">
        <dt>Site</dt>
        <dd><a href=${`/sites/${s.siteId}`}>${s.siteId}</a></dd>
        <dt>Commit</dt>
        <dd>${shortSha(s.sha)}${s.branch ? markup` on <code>${s.branch}</code>` : null}</dd>
        <dt>Scanned</dt>
        <dd>${when(s.createdAt)}${s.engine ? ` with ${s.engine.name} ${s.engine.version ?? ''}` : ''}</dd>
        <dt>Address</dt>
        <dd>${s.url}</dd>
        <dt>Found</dt>
        <dd>
          ${readableCount(s.issueCount, 'issue')} on ${readableCount(s.pageCount, 'page')}:
          ${IMPACTS.map((i) => markup` ${impactBadge(i)} ${s.summary.by_impact[i]}`)}
        </dd>
      </dl>
      <h2>Pages</h2>
      ${pagesTable(b, f)}
      <h2 id="issues" tabindex="-1">Issues</h2>
      ${scanFilters(b, f)} ${groupsTable(b, f)} ${issueList(b, shown, shots)}
      ${pager(f, cursor, after !== undefined)}`;
    const title = `Scan of ${s.siteId}, ${s.createdAt.slice(0, 10)}`;
    sendPage(
      res,
      200,
      layout({
        title,
        visitor,
        breadcrumbs: [['Sites', '/'], [s.siteId, `/sites/${s.siteId}`], ['Scan']],
        main,
      }),
    );
  };
}
