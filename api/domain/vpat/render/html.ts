import { agentFixesText } from '../agent-fixes.js';
import { type Conformance } from '../editions.js';
import { CONFORMANCE_TERMS } from '../../catalog/vpat-chapters.data.js';
import type { ReportCriterion, VpatReport } from '../report.js';
import { statusLine } from '../status.js';
import { shownSuggestion } from './suggestion.js';

/**
 * One self-contained, printable HTML page in the ITI VPAT® layout: product information, evaluation
 * methods, applicable standards, one table per chapter (Criteria | Conformance Level | Remarks and
 * Explanations) and the terms. Semantic HTML only (lang, headings, captions, th with scope), no script,
 * no external resources; the page passes axe-core (tested in Chromium).
 */

export const CONFORMANCE_LABELS: Record<Conformance, string> = Object.fromEntries(
  CONFORMANCE_TERMS.map((t) => [t.id, t.label]),
) as Record<Conformance, string>;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const URL_PATTERN = /https?:\/\/[^\s<>"')]+[^\s<>"').,;:]/g;

/** Escapes text and turns the http(s) URLs in it (help pages, affected pages) into links. */
function linkify(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(URL_PATTERN)) {
    out += escapeHtml(text.slice(last, m.index));
    const url = escapeHtml(m[0]);
    out += `<a href="${url}">${url}</a>`;
    last = m.index + m[0].length;
  }
  return out + escapeHtml(text.slice(last));
}

function criterionHeader(c: ReportCriterion): string {
  const level = c.level ? ` (Level ${c.level})` : '';
  return `${escapeHtml(c.id)} ${escapeHtml(c.title)}${level}`;
}

function remarksCell(report: VpatReport, c: ReportCriterion): string {
  const parts = [`<p>${linkify(c.remarks)}</p>`];
  const suggestion = shownSuggestion(report, c);
  if (suggestion) {
    parts.push(
      `<p class="suggestion"><strong>${escapeHtml(suggestion.label)}</strong> ${linkify(suggestion.text)}</p>`,
    );
  }
  const fixes = agentFixesText(c);
  if (fixes) parts.push(`<p class="meta">${linkify(fixes)}</p>`);
  if (c.override) {
    const who = `${escapeHtml(c.override.author)}, ${escapeHtml(c.override.created_at.slice(0, 10))}`;
    const carried = c.override.inherited_from
      ? ` (carried forward from report ${escapeHtml(c.override.inherited_from)})`
      : '';
    parts.push(`<p class="meta">Reviewed by ${who}${carried}.</p>`);
  } else if (c.basis === 'rules-passed' && (c.related ?? []).length === 0) {
    // The other answers that need review already say so in their first words.
    parts.push('<p class="meta">Needs human confirmation.</p>');
  }
  return parts.join('');
}

function contactLines(report: VpatReport): string[] {
  const c = report.product.contact;
  if (!c) return [];
  return [c.name, c.email, c.phone, c.website, c.address].filter((v): v is string => Boolean(v));
}

/** "3 rows need human review; 1 override is stale." */
export function summarySentence(report: VpatReport): string {
  const review = report.summary.needs_review;
  const stale = report.summary.stale_overrides;
  return (
    `${review} ${review === 1 ? 'row needs' : 'rows need'} human review; ` +
    `${stale} ${stale === 1 ? 'override is' : 'overrides are'} stale.`
  );
}

// The report's own style sheet: readable on screen, and paged cleanly when printed.
const STYLE = `body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; background: #fff; margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem; }
h1 { font-size: 1.8rem; } h2 { font-size: 1.4rem; margin-top: 2rem; } h3 { font-size: 1.15rem; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1.5rem; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { border: 1px solid #595959; padding: 0.4rem 0.5rem; text-align: left; vertical-align: top; }
thead th { background: #e8e8e8; }
tbody th { font-weight: 600; width: 24%; } tbody td:nth-child(2) { width: 14%; }
td p { margin: 0 0 0.4rem; } .meta { font-style: italic; }
.suggestion { border-left: 4px solid #595959; padding-left: 0.5rem; }
a { color: #0645ad; text-decoration: underline; overflow-wrap: anywhere; }
.status { border: 2px solid #1a1a1a; padding: 0.5rem 0.75rem; }
dt { font-weight: 600; } dd { margin: 0 0 0.5rem 1rem; }
@media print { body { max-width: none; padding: 0; font-size: 11pt; } a { color: #000; } thead { display: table-header-group; } tr { break-inside: avoid; } section { break-before: auto; } }
`;

/** One table per chapter (its heading, note and rows); a chapter without criteria is left out. */
function chapterTables(report: VpatReport): string {
  return report.chapters
    .map((ch) => {
      const rows = report.criteria.filter((c) => c.chapter === ch.id);
      if (rows.length === 0) return '';
      const body = rows
        .map(
          (c) =>
            `<tr id="c-${escapeHtml(c.id)}"><th scope="row">${criterionHeader(c)}</th>` +
            `<td>${escapeHtml(CONFORMANCE_LABELS[c.conformance])}${c.override?.stale ? ' <strong>(stale override)</strong>' : ''}</td>` +
            `<td>${remarksCell(report, c)}</td></tr>`,
        )
        .join('\n');
      const note = ch.note ? `<p>${linkify(ch.note)}</p>` : '';
      return (
        `<section aria-labelledby="h-${escapeHtml(ch.id)}"><h3 id="h-${escapeHtml(ch.id)}">${escapeHtml(ch.label)}</h3>${note}` +
        `<table><caption>${escapeHtml(ch.label)}</caption><thead><tr><th scope="col">Criteria</th>` +
        `<th scope="col">Conformance Level</th><th scope="col">Remarks and Explanations</th></tr></thead>` +
        `<tbody>\n${body}\n</tbody></table></section>`
      );
    })
    .join('\n');
}

export function renderVpatHtml(report: VpatReport): string {
  const title = `${report.product.name} ${report.product.version} Accessibility Conformance Report`;
  const info: Array<[string, string]> = [
    ['Name of product/version', `${report.product.name} ${report.product.version}`],
    ['Public address', report.product.url ?? '—'],
    ['Report date', report.created_at.slice(0, 10)],
    ['Product description', report.product.description ?? '—'],
    ['Vendor', report.product.vendor ?? '—'],
    ['Contact information', contactLines(report).join(', ') || '—'],
    ['Report status', statusLine(report)],
    ['Report id', `${report.id} (version ${report.version ?? 1})`],
  ];
  const standards = report.standards
    .map((s) => `<li><a href="${escapeHtml(s.url)}">${escapeHtml(s.label)}</a></li>`)
    .join('');
  const tables = chapterTables(report);
  const summary = Object.entries(report.summary.by_conformance)
    .map(([k, n]) => `<li>${escapeHtml(CONFORMANCE_LABELS[k as Conformance])}: ${n}</li>`)
    .join('');
  const terms = CONFORMANCE_TERMS.map(
    (t) => `<dt>${escapeHtml(t.label)}</dt><dd>${escapeHtml(t.description)}</dd>`,
  ).join('');
  const warnings = report.warnings.length
    ? `<ul>${report.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>Based on ${escapeHtml(report.title)}</p>
<p class="status"><strong>${escapeHtml(statusLine(report))}</strong></p>
<section aria-labelledby="h-product"><h2 id="h-product">Product information</h2>
<dl>${info.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${linkify(v)}</dd>`).join('')}</dl></section>
<section aria-labelledby="h-methods"><h2 id="h-methods">Evaluation methods used</h2>
<p>${linkify(report.evaluation_methods)}</p>${warnings}</section>
<section aria-labelledby="h-standards"><h2 id="h-standards">Applicable standards/guidelines</h2>
<p>This report covers the degree of conformance for the following accessibility standards/guidelines:</p>
<ul>${standards}</ul></section>
<section aria-labelledby="h-summary"><h2 id="h-summary">Summary</h2>
<ul>${summary}</ul>
<p>${summarySentence(report)}</p></section>
<section aria-labelledby="h-terms"><h2 id="h-terms">Terms</h2>
<p>The terms used in the Conformance Level information are defined as follows:</p>
<dl>${terms}</dl></section>
<section aria-labelledby="h-report"><h2 id="h-report">Report</h2>
${tables}
</section>
<section aria-labelledby="h-legal"><h2 id="h-legal">Legal disclaimer</h2>
<p>This report was generated by a11y-gate from automated accessibility test results and the reviewers' answers named in it. Automated testing finds only some accessibility failures; every Supports in it was granted or confirmed by a named person. VPAT® is a registered service mark of the Information Technology Industry Council (ITI).</p></section>
</main>
</body>
</html>
`;
}
