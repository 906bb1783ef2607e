import type { Request, Response } from 'express';
import { domainErrors } from '../../domain/errors.js';
import { renderVpatHtml } from '../../domain/vpat-render-html.js';
import { renderVpatMarkdown } from '../../domain/vpat-render-md.js';
import { renderVpatOpenAcr } from '../../domain/vpat-render-openacr.js';
import type { ReportCriterion, VpatReport } from '../../domain/vpat-report.js';
import type { ApiContext } from '../../context.js';
import { VpatReportService } from '../../services/vpat-reports.js';
import { markup, type Html } from '../html.js';
import { layout } from '../layout.js';
import { sendPage } from '../respond.js';
import type { Visitor } from '../session.js';
import { plural, tableWrap, when } from '../views/parts.js';

const DOWNLOADS = {
  html: { label: 'HTML (printable)', type: 'text/html; charset=utf-8', ext: 'html', render: renderVpatHtml },
  md: { label: 'Markdown', type: 'text/markdown; charset=utf-8', ext: 'md', render: renderVpatMarkdown },
  openacr: {
    label: 'OpenACR (YAML)',
    type: 'application/yaml; charset=utf-8',
    ext: 'yaml',
    render: renderVpatOpenAcr,
  },
} as const;

const CONFORMANCE_TEXT: Record<string, string> = {
  supports: 'Supports',
  'partially-supports': 'Partially Supports',
  'does-not-support': 'Does Not Support',
  'not-applicable': 'Not Applicable',
  'not-evaluated': 'Not Evaluated',
};

function evidence(c: ReportCriterion): Html {
  const e = c.evidence;
  const parts = [
    e.issues
      ? `${plural(e.issues, 'issue')} on ${e.pages_affected} of ${plural(e.pages_total, 'page')}`
      : null,
    e.incomplete ? `${plural(e.incomplete, 'result')} to review` : null,
    e.rules.length ? `rules: ${e.rules.join(', ')}` : null,
  ].filter(Boolean);
  return markup`${parts.length ? parts.join('; ') : '—'}`;
}

function criteriaTable(criteria: ReportCriterion[], caption: string): Html {
  return tableWrap(
    caption,
    markup`<table>
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          <th scope="col">Criterion</th>
          <th scope="col">Level</th>
          <th scope="col">Conformance</th>
          <th scope="col">Remarks</th>
          <th scope="col">Evidence</th>
          <th scope="col">Answer from</th>
        </tr>
      </thead>
      <tbody>
        ${criteria.map(
          (c) =>
            markup`<tr id=${`c-${c.id}`}>
              <th scope="row">${c.id} ${c.title}</th>
              <td>${c.level ?? '—'}</td>
              <td>
                ${CONFORMANCE_TEXT[c.conformance] ?? c.conformance}${c.needs_review ? markup` <span class="badge waived">needs review</span>` : null}
              </td>
              <td>${c.remarks}</td>
              <td>${evidence(c)}</td>
              <td>
                ${c.override ? `${c.override.author}, ${c.override.created_at.slice(0, 10)}` : c.source}
              </td>
            </tr>`,
        )}
      </tbody>
    </table>`,
  );
}

function facts(r: VpatReport): Html {
  return markup`<dl class="facts">
    <dt>Product</dt>
    <dd>${r.product.name} ${r.product.version}${r.product.vendor ? `, ${r.product.vendor}` : ''}</dd>
    <dt>Status</dt>
    <dd>${r.status}</dd>
    <dt>Site</dt>
    <dd><a href=${`/sites/${r.siteId}`}>${r.siteId}</a></dd>
    <dt>Evidence</dt>
    <dd><a href=${`/scans/${r.scan_id}`}>scan of ${when(r.scan.created_at)}</a></dd>
    <dt>Standard</dt>
    <dd>${r.catalog}</dd>
    <dt>Generated</dt>
    <dd>${when(r.created_at)} by ${r.created_by.name}</dd>
  </dl>`;
}

export function reportPage(ctx: ApiContext) {
  const reports = new VpatReportService(ctx);
  return async (visitor: Visitor, req: Request, res: Response): Promise<void> => {
    const r = await reports.find(visitor.user.org, String(req.params.id));
    if (!r) throw domainErrors.notFound('report');
    const queue = r.criteria.filter((c) => c.needs_review);
    const main = markup`${facts(r)}
      <h2>Downloads</h2>
      <ul>
        ${Object.entries(DOWNLOADS).map(([f, d]) => markup`<li><a href=${`/reports/${r.id}/download/${f}`}>${d.label}</a></li>`)}
      </ul>
      <h2 id="queue">Waiting for a person (${queue.length})</h2>
      ${queue.length ? criteriaTable(queue, 'Rows waiting for review') : markup`<p>Nothing is waiting: every row has an answer a person or the evidence settled.</p>`}
      <h2>All criteria</h2>
      ${criteriaTable(r.criteria, `${r.title}: every criterion`)}`;
    sendPage(
      res,
      200,
      layout({
        title: r.title,
        visitor,
        breadcrumbs: [['Sites', '/'], [r.siteId, `/sites/${r.siteId}`], ['Report']],
        main,
      }),
    );
  };
}

/** The report in another format, as a download (the same renderers as `GET /api/v1/vpat/:id?format=`). */
export function reportDownload(ctx: ApiContext) {
  const reports = new VpatReportService(ctx);
  return async (visitor: Visitor, req: Request, res: Response): Promise<void> => {
    const format = String(req.params.format) as keyof typeof DOWNLOADS;
    const d = Object.hasOwn(DOWNLOADS, format) ? DOWNLOADS[format] : undefined;
    const r = d ? await reports.find(visitor.user.org, String(req.params.id)) : undefined;
    if (!d || !r) throw domainErrors.notFound('report');
    res
      .status(200)
      .set('Content-Disposition', `attachment; filename="${r.id}.${d.ext}"`)
      .set('Cache-Control', 'no-store')
      .type(d.type)
      .send(d.render(r));
  };
}
