import { escapeHtml } from '../../vpat/render/html.js';
import type { WaiverReasonCategory } from '../../waivers/reason-category.js';
import type { AccessibilityStatement, FailingCriterion, StatementWaiver } from '../statement.js';
import { htmlContactWays, htmlLink, htmlPage, paragraph, section } from './page.js';
import * as words from './words.js';

/**
 * The statement as one self-contained, printable HTML page in the order of the model statement
 * (Implementing Decision (EU) 2018/1523). Every value is escaped as text; the page passes axe-core in
 * light and dark, down to 320 px (tested in Chromium). Pure.
 */

const list = (items: string[], cls = ''): string =>
  items.length === 0
    ? ''
    : `<ul${cls ? ` class="${cls}"` : ''}>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;

function criterionItem(c: FailingCriterion): string {
  const remarks = words.criterionRemarks(c);
  return (
    `<p><strong>${escapeHtml(words.criterionHeading(c))}</strong></p>` +
    (remarks === null ? '' : paragraph(remarks)) +
    paragraph(words.criterionWhere(c)) +
    list(c.pages.map((p) => `<code>${escapeHtml(p)}</code>`))
  );
}

function waiverItem(w: StatementWaiver): string {
  return `<p><strong>${escapeHtml(words.waiverScope(w))}.</strong></p>${paragraph(words.waiverReason(w))}`;
}

function category(id: string, c: WaiverReasonCategory, body: string): string {
  return `<h3 id="h-${id}">${escapeHtml(words.CATEGORY_HEADINGS[c])}</h3>\n${body}`;
}

function nonAccessible(s: AccessibilityStatement): string {
  const n = s.non_accessible;
  const failing = n.non_compliance.criteria;
  const accepted = n.non_compliance.waivers;
  const nonCompliance =
    failing.length + accepted.length === 0
      ? paragraph(words.noneUnder('non-compliance'))
      : list(failing.map(criterionItem), 'items') +
        (accepted.length > 0
          ? paragraph('Issues accepted until they are fixed:') + list(accepted.map(waiverItem), 'items')
          : '');
  const waivers = (c: WaiverReasonCategory, ws: StatementWaiver[]) =>
    ws.length === 0 ? paragraph(words.noneUnder(c)) : list(ws.map(waiverItem), 'items');
  return section(
    'non-accessible',
    'Non-accessible content',
    paragraph('The content listed below is non-accessible for the following reasons.') +
      category('non-compliance', 'non-compliance', nonCompliance) +
      category(
        'burden',
        'disproportionate-burden',
        waivers('disproportionate-burden', n.disproportionate_burden),
      ) +
      category('scope', 'outside-scope', waivers('outside-scope', n.outside_scope)) +
      `<h3 id="h-alternatives">Accessible alternatives</h3>` +
      paragraph(words.alternatives(s)),
  );
}

function contact(s: AccessibilityStatement): string {
  const a = s.answers;
  const ways = htmlContactWays(a);
  return section(
    'feedback',
    'Feedback and contact information',
    paragraph(words.FEEDBACK_INTRO) +
      paragraph(words.answerOr(a.feedback)) +
      (ways.length > 0 ? list(ways) : paragraph(words.NOT_ANSWERED)),
  );
}

/** In a draft: the questions publishing still needs answered. */
function missing(s: AccessibilityStatement): string {
  if (s.status === 'final' || s.missing.length === 0) return '';
  return (
    `<div class="missing">${paragraph('Before it can be published, a person has to answer:')}` +
    `${list(s.missing.map((m) => escapeHtml(m.question)))}</div>`
  );
}

export function renderStatementHtml(s: AccessibilityStatement): string {
  const c = s.compliance;
  const body = [
    `<h1>${escapeHtml(words.title(s))}</h1>`,
    `<p class="status"><strong>${escapeHtml(words.statusLine(s))}</strong></p>`,
    missing(s),
    ...words.introduction(s).map(paragraph),
    section(
      'compliance',
      'Compliance status',
      paragraph(words.complianceSentence(s)) +
        list(c.reasons.map(escapeHtml)) +
        paragraph(words.complianceBasis(s)) +
        `<p>Standard: ${htmlLink('url', c.standard.url)}</p>`,
    ),
    nonAccessible(s),
    section(
      'preparation',
      'Preparation of this accessibility statement',
      words.preparation(s).map(paragraph).join(''),
    ),
    contact(s),
    section(
      'enforcement',
      'Enforcement procedure',
      paragraph(words.enforcementSentence(s)) +
        (s.answers.enforcement_url
          ? `<p>${htmlLink('url', s.answers.enforcement_url)}</p>`
          : paragraph(words.NOT_ANSWERED)),
    ),
  ];
  return htmlPage(words.title(s), body.filter(Boolean).join('\n'));
}
