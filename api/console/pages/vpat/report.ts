import type { Request, Response } from 'express';
import { domainErrors } from '../../../domain/errors.js';
import type { VpatReport } from '../../../domain/vpat/report.js';
import type { ApiContext } from '../../../context.js';
import { exportReport, type ExportFormat } from '../../../services/vpat/exports.js';
import { VpatReportService } from '../../../services/vpat/reports.js';
import { VpatReviewService } from '../../../services/vpat/review.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { layout } from '../../layout.js';
import { sendPage } from '../../respond.js';
import type { Visitor } from '../../session.js';
import { diffView } from '../../views/report-diff.js';
import { criteriaTable, reportFacts } from '../../views/report-rows.js';
import { reviewSection, type ReviewState } from './report-review.js';
import { publishAction, reviewAction } from './report-review-form.js';
import { behindSection, reportButtons } from './report-actions.js';
import { reportLabel } from '../assessments/site-section.js';
import { sendEarl } from '../assessments/earl-download.js';

const DOWNLOADS: Record<ExportFormat | 'earl', { label: string; ext: string }> = {
  html: { label: 'HTML (printable)', ext: 'html' },
  md: { label: 'Markdown', ext: 'md' },
  openacr: { label: 'OpenACR (YAML)', ext: 'yaml' },
  pdf: { label: 'PDF (tagged)', ext: 'pdf' },
  earl: { label: 'EARL of its assessment (WCAG-EM Report Tool)', ext: 'json' },
};

/** The site's other reports and versions, to compare this one with (a plain GET form). */
async function compareForm(reports: VpatReportService, v: Visitor, r: VpatReport): Promise<Html> {
  const others = (await reports.list(v.user.org, r.siteId, 50)).filter((o) => o.id !== r.id);
  if (others.length === 0) return markup`<p>There is no other report of this site to compare with.</p>`;
  return markup`<form method="get" action=${`/reports/${r.id}/changes`} class="stack">
    <div class="field">
      <label for="against">Compare with</label>
      <select id="against" name="against">
        ${others.map(
          (o) => markup`<option value=${o.id} selected=${o.id === r.previous_id}>${reportLabel(o)}</option>`,
        )}
      </select>
    </div>
    <div><button type="submit">Show the changes</button></div>
  </form>`;
}

function notice(req: Request): Html | null {
  const decided = typeof req.query.decided === 'string' ? Number(req.query.decided) : 0;
  if (Number.isSafeInteger(decided) && decided > 0)
    return markup`<p class="notice" role="status">
      ${decided === 1 ? '1 decision' : `${decided} decisions`} recorded: this is the new version.
    </p>`;
  if (req.query.refreshed === '1')
    return markup`<p class="notice" role="status">
      This is the next version, made from the newest evidence: every earlier decision is carried forward.
    </p>`;
  if (req.query.not_refreshed === '1')
    return markup`<p class="notice" role="status">
      No new version was made: this version is final or already has a newer one (the site’s page lists them).
    </p>`;
  if (req.query.published === '1')
    return markup`<p class="notice" role="status">Published: this version is final.</p>`;
  return null;
}

async function render(
  ctx: ApiContext,
  v: Visitor,
  req: Request,
  res: Response,
  status = 200,
  state?: ReviewState,
): Promise<void> {
  const reports = new VpatReportService(ctx);
  const r = await reports.withBehind(v.user.org, await reports.find(v.user.org, String(req.params.id)));
  const main = markup`${notice(req)} ${reportFacts(r)} ${behindSection(r, v)}
    <h2>Downloads</h2>
    <ul>
      ${Object.entries(DOWNLOADS)
        .filter(([f]) => f !== 'earl' || r.assessment)
        .map(([f, d]) => markup`<li><a href=${`/reports/${r.id}/download/${f}`}>${d.label}</a></li>`)}
    </ul>
    ${reviewSection(r, v, state)} ${reportButtons(r, v)}
    <h2>Compare</h2>
    ${await compareForm(reports, v, r)}
    <h2>All criteria</h2>
    ${criteriaTable(r.criteria, `${r.title}: every criterion`)}`;
  sendPage(
    res,
    status,
    layout({
      // The heading names the product: a site has one report per product version.
      title: `${state ? 'Error: ' : ''}${r.product.name} ${r.product.version}: ${r.title}`,
      visitor: v,
      breadcrumbs: [['Sites', '/'], [r.siteId, `/sites/${r.siteId}`], ['Report']],
      main,
    }),
  );
}

export function reportPage(ctx: ApiContext) {
  return (v: Visitor, req: Request, res: Response) => render(ctx, v, req, res);
}

const showAgain =
  (ctx: ApiContext) => (req: Request, res: Response, v: Visitor) => (state: ReviewState, status: number) =>
    render(ctx, v, req, res, status, state);

export const reportReviewAction = (ctx: ApiContext) => reviewAction(ctx, showAgain(ctx));
export const reportPublishAction = (ctx: ApiContext) => publishAction(ctx, showAgain(ctx));

/** `/reports/:id/changes?against=`: what changed from another report (default: the previous version). */
export function reportChangesPage(ctx: ApiContext) {
  const reviews = new VpatReviewService(ctx);
  return async (v: Visitor, req: Request, res: Response): Promise<void> => {
    const against =
      typeof req.query.against === 'string' && req.query.against ? req.query.against : undefined;
    const diff = await reviews.diff(v.user.org, String(req.params.id), against);
    sendPage(
      res,
      200,
      layout({
        title: `Changes to version ${diff.to.version} since version ${diff.from.version}`,
        visitor: v,
        breadcrumbs: [['Sites', '/'], ['Report', `/reports/${diff.to.id}`], ['Changes']],
        main: diffView(diff),
      }),
    );
  };
}

/**
 * The report as a download, rendered by the same service as `GET /api/v1/vpat/:id?format=`; `earl` is its
 * assessment as `GET /api/v1/assessments/:id?format=earl` answers it (404 for a report without one).
 */
export function reportDownload(ctx: ApiContext) {
  const reports = new VpatReportService(ctx);
  return async (v: Visitor, req: Request, res: Response): Promise<void> => {
    const format = String(req.params.format) as keyof typeof DOWNLOADS;
    if (!Object.hasOwn(DOWNLOADS, format)) throw domainErrors.notFound('format');
    const r = await reports.find(v.user.org, String(req.params.id));
    if (format === 'earl') {
      if (!r.assessment) throw domainErrors.notFound('assessment of this report');
      return sendEarl(ctx, v, res, r.assessment.id, r.id);
    }
    const out = await exportReport(r, format);
    res
      .status(200)
      .set('Content-Disposition', `attachment; filename="${r.id}.${DOWNLOADS[format].ext}"`)
      .set('Cache-Control', 'no-store')
      .type(out.contentType)
      .send(out.body);
  };
}
