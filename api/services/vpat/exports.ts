import { renderVpatHtml } from '../../domain/vpat/render/html.js';
import { renderVpatMarkdown } from '../../domain/vpat/render/md.js';
import { renderVpatOpenAcr } from '../../domain/vpat/render/openacr.js';
import { renderVpatPdf } from '../../domain/vpat/render/pdf.js';
import type { VpatReport } from '../../domain/vpat/report.js';

export type ExportFormat = 'html' | 'md' | 'openacr' | 'pdf';

const EXPORTS: Record<ExportFormat, { type: string; render: (r: VpatReport) => string | Promise<Buffer> }> = {
  html: { type: 'text/html; charset=utf-8', render: renderVpatHtml },
  md: { type: 'text/markdown; charset=utf-8', render: renderVpatMarkdown },
  openacr: { type: 'application/yaml; charset=utf-8', render: renderVpatOpenAcr },
  pdf: { type: 'application/pdf', render: renderVpatPdf },
};

/** A report in one of its document formats. */
export async function exportReport(
  report: VpatReport,
  format: ExportFormat,
): Promise<{ contentType: string; body: string | Buffer }> {
  const { type, render } = EXPORTS[format];
  return { contentType: type, body: await render(report) };
}
