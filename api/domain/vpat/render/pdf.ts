import { agentFixesText } from '../agent-fixes.js';
import PDFDocument from 'pdfkit';
import { type Conformance } from '../editions.js';
import { CONFORMANCE_TERMS } from '../../catalog/vpat-chapters.data.js';
import { CONFORMANCE_LABELS, summarySentence } from './html.js';
import { statusLine } from '../status.js';
import { suggestionText } from './suggestion.js';
import type { ReportCriterion, VpatReport } from '../report.js';

/**
 * The report as a tagged PDF (the structure of PDF/UA: a title shown in the window, a document language,
 * headings, lists, tables with column and row headers, reading order = structure order; borders and
 * page furniture are artifacts). PDFKit writes the structure tree; its table helper tags cells TH/TD with
 * scopes and header ids. Same content as the HTML page.
 */

type Doc = InstanceType<typeof PDFDocument>;
type Struct = ReturnType<Doc['struct']>;

const BODY = 9.5;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';

// The standard fonts are WinAnsi-encoded: anything outside it would print as garbage, so it is spelled out.
const WINANSI_SAFE: Record<string, string> = { '≤': '<=', '≥': '>=', '→': '->', '×': 'x' };
const WINANSI_EXTRA = new Set('–—‘’“”•…™€®');
const safe = (text: string) =>
  [...text]
    .map((c) => (c.charCodeAt(0) <= 0xff || WINANSI_EXTRA.has(c) ? c : (WINANSI_SAFE[c] ?? '?')))
    .join('');

function heading(doc: Doc, parent: Struct, level: 'H1' | 'H2' | 'H3', text: string): void {
  const size = level === 'H1' ? 18 : level === 'H2' ? 14 : 11.5;
  if (level !== 'H1') doc.moveDown(0.6);
  parent.add(
    doc.struct(level, {}, () => {
      doc.font(BOLD).fontSize(size).text(safe(text), doc.page.margins.left, doc.y);
    }),
  );
  doc.font(FONT).fontSize(BODY).moveDown(0.3);
}

function paragraph(doc: Doc, parent: Struct, text: string, bold = false): void {
  parent.add(
    doc.struct('P', {}, () => {
      doc
        .font(bold ? BOLD : FONT)
        .fontSize(BODY)
        .text(safe(text), doc.page.margins.left, doc.y);
    }),
  );
  doc.font(FONT).moveDown(0.4);
}

function list(doc: Doc, parent: Struct, items: string[]): void {
  const l = doc.struct('L');
  parent.add(l);
  for (const item of items) {
    const li = doc.struct('LI');
    l.add(li);
    li.add(
      doc.struct('Lbl', {}, () =>
        doc
          .font(FONT)
          .fontSize(BODY)
          .text('•', doc.page.margins.left + 6, doc.y, { continued: false, lineBreak: false }),
      ),
    );
    li.add(
      doc.struct('LBody', {}, () => {
        doc.text(safe(item), doc.page.margins.left + 18, doc.y);
      }),
    );
    li.end();
  }
  l.end();
  doc.moveDown(0.4);
}

function remarks(report: VpatReport, c: ReportCriterion): string {
  const parts = [c.remarks];
  const fixes = agentFixesText(c);
  if (fixes) parts.push(fixes);
  const suggestion = suggestionText(report, c);
  if (suggestion) parts.push(suggestion);
  if (c.override) {
    parts.push(`Reviewed by ${c.override.author}, ${c.override.created_at.slice(0, 10)}.`);
  } else if (c.basis === 'rules-passed') {
    parts.push('Needs human confirmation.');
  }
  return parts.join('\n');
}

function chapterTable(doc: Doc, parent: Struct, report: VpatReport, rows: ReportCriterion[]): void {
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const head = (text: string) => ({
    text,
    type: 'TH',
    scope: 'Column',
    font: { src: BOLD },
    backgroundColor: '#e8e8e8',
  });
  doc.font(FONT).fontSize(8.5);
  doc.table({
    structParent: parent,
    columnStyles: [width * 0.26, width * 0.15, '*'],
    defaultStyle: { padding: 4, border: 0.5, borderColor: '#595959' },
    data: [
      [head('Criteria'), head('Conformance Level'), head('Remarks and Explanations')],
      ...rows.map((c) => [
        {
          text: safe(`${c.id} ${c.title}${c.level ? ` (Level ${c.level})` : ''}`),
          type: 'TH',
          scope: 'Row',
          font: { src: BOLD },
        },
        { text: `${CONFORMANCE_LABELS[c.conformance]}${c.override?.stale ? ' (stale override)' : ''}` },
        { text: safe(remarks(report, c)) },
      ]),
    ],
  } as unknown as Parameters<Doc['table']>[0]);
  doc.font(FONT).fontSize(BODY).moveDown(0.6);
}

function frontMatter(doc: Doc, root: Struct, report: VpatReport, title: string): void {
  heading(doc, root, 'H1', title);
  paragraph(doc, root, `Based on ${report.title}`);
  paragraph(doc, root, statusLine(report), true);
  heading(doc, root, 'H2', 'Product information');
  const contact = report.product.contact;
  const info: Array<[string, string]> = [
    ['Name of product/version', `${report.product.name} ${report.product.version}`],
    ['Public address', report.product.url ?? '—'],
    ['Report date', (report.published?.at ?? report.created_at).slice(0, 10)],
    ['Product description', report.product.description ?? '—'],
    ['Vendor', report.product.vendor ?? '—'],
    ['Contact information', contact ? Object.values(contact).filter(Boolean).join(', ') : '—'],
    ['Report id', `${report.id} (version ${report.version ?? 1})`],
  ];
  if (report.published)
    info.push(['Published by', `${report.published.by}, ${report.published.at.slice(0, 10)}`]);
  for (const [k, v] of info) paragraph(doc, root, `${k}: ${v}`);
  heading(doc, root, 'H2', 'Evaluation methods used');
  paragraph(doc, root, report.evaluation_methods);
  if (report.warnings.length > 0) list(doc, root, report.warnings);
  heading(doc, root, 'H2', 'Applicable standards/guidelines');
  paragraph(
    doc,
    root,
    'This report covers the degree of conformance for the following accessibility standards/guidelines:',
  );
  list(
    doc,
    root,
    report.standards.map((s) => `${s.label} (${s.url})`),
  );
  heading(doc, root, 'H2', 'Summary');
  list(
    doc,
    root,
    Object.entries(report.summary.by_conformance).map(
      ([k, n]) => `${CONFORMANCE_LABELS[k as Conformance]}: ${n}`,
    ),
  );
  paragraph(doc, root, summarySentence(report));
  heading(doc, root, 'H2', 'Terms');
  for (const t of CONFORMANCE_TERMS) paragraph(doc, root, `${t.label}: ${t.description}`);
}

export function renderVpatPdf(report: VpatReport): Promise<Buffer> {
  const title = `${report.product.name} ${report.product.version} Accessibility Conformance Report`;
  const doc = new PDFDocument({
    pdfVersion: '1.7',
    tagged: true,
    lang: 'en-US',
    displayTitle: true,
    size: 'A4',
    margin: 50,
    bufferPages: false,
    info: {
      Title: title,
      Author: report.product.vendor ?? 'a11y-gate',
      Subject: report.title,
      Creator: 'a11y-gate',
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const root = doc.struct('Document');
  doc.addStructure(root);
  frontMatter(doc, root, report, title);
  heading(doc, root, 'H2', 'Report');
  for (const ch of report.chapters) {
    const rows = report.criteria.filter((c) => c.chapter === ch.id);
    if (rows.length === 0) continue;
    const sect = doc.struct('Sect');
    root.add(sect);
    heading(doc, sect, 'H3', ch.label);
    if (ch.note) paragraph(doc, sect, ch.note);
    chapterTable(doc, sect, report, rows);
    sect.end();
  }
  heading(doc, root, 'H2', 'Legal disclaimer');
  paragraph(
    doc,
    root,
    'This report was generated by a11y-gate from automated accessibility test results and the reviewers’ answers named in it. ' +
      'Automated testing finds only some accessibility failures; every Supports in it was granted or confirmed by a named person. ' +
      'VPAT® is a registered service mark of the Information Technology Industry Council (ITI).',
  );
  root.end();
  doc.end();
  return done;
}
