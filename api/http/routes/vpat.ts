import { renderVpatHtml } from '../../domain/vpat-render-html.js';
import { renderVpatMarkdown } from '../../domain/vpat-render-md.js';
import { renderVpatOpenAcr } from '../../domain/vpat-render-openacr.js';
import { IdParam } from '../../schemas/common.js';
import { GenerateVpatBody, VpatFormatQuery, VpatReport } from '../../schemas/vpat.js';
import { z } from '../../schemas/zod.js';
import { VpatReportService } from '../../services/vpat-reports.js';
import type { ApiContext } from '../../context.js';
import { problems } from '../problem.js';
import { defineRoute, type AnyRoute } from '../route.js';

const RENDERERS = {
  html: { type: 'text/html; charset=utf-8', render: renderVpatHtml },
  md: { type: 'text/markdown; charset=utf-8', render: renderVpatMarkdown },
  openacr: { type: 'application/yaml; charset=utf-8', render: renderVpatOpenAcr },
} as const;

export function vpatRoutes(ctx: ApiContext): AnyRoute[] {
  const service = new VpatReportService(ctx);
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/vpat/generate',
      tag: 'VPAT / ACR',
      summary: 'Generate a VPAT® / Accessibility Conformance Report from a scan and overrides',
      description:
        'Derives every criterion of the edition from the scan: violations (waived ones too) on more than half of the ' +
        'pages → does-not-support, on half or fewer → partially-supports; rules that test the criterion ran and found ' +
        'nothing → supports (automated evidence only); only incomplete results, rules that did not run or no rule at ' +
        'all → not-evaluated. Overrides win and are flagged `stale` when the evidence contradicts them. The report is ' +
        '`draft` while any criterion below Level AAA is not evaluated. Reports are immutable: generate again for a new one. ' +
        '404 when `scan_id` or `inherit_overrides_from` names nothing in your org, or the site has no scan on its base branch.',
      access: 'manage',
      body: GenerateVpatBody,
      responses: {
        201: { description: 'The report.', schema: VpatReport, headers: { Location: '' } },
      },
      handler: async ({ body, org, principal }) => {
        const author =
          principal.kind === 'key'
            ? { keyId: principal.keyId, name: principal.name }
            : { keyId: null, name: 'admin' };
        const report = await service.generate(org, author, body);
        ctx.logger.info(
          { vpat_id: report.id, org, site_id: report.siteId, scan_id: report.scan_id, status: report.status },
          'vpat generated',
        );
        return { status: 201, headers: { Location: `/api/v1/vpat/${report.id}` }, body: report };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/vpat/:id',
      tag: 'VPAT / ACR',
      summary: 'A generated report: JSON, or ?format=html | md | openacr',
      description:
        '`html` is one self-contained, printable page in the ITI VPAT® layout (Criteria | Conformance Level | ' +
        'Remarks and Explanations); `md` is Markdown; `openacr` is OpenACR YAML (GSA schema openacr-0.1.0).',
      access: 'read',
      params: IdParam,
      query: VpatFormatQuery,
      responses: {
        200: {
          description: 'The report in the requested format.',
          schema: VpatReport,
          content: {
            'text/html': z.string(),
            'text/markdown': z.string(),
            'application/yaml': z.string(),
          },
        },
      },
      handler: async ({ params, query, org }) => {
        const report = await service.find(org, params.id);
        if (!report) throw problems.notFound('report');
        if (query.format === 'json') return { status: 200, body: report };
        const { type, render } = RENDERERS[query.format];
        return { status: 200, body: render(report), contentType: type };
      },
    }),
  ];
}
