import { linkDestination, markdownCode, markdownText } from '../../../../core/text/github-markdown.js';
import type { WaiverReasonCategory } from '../../waivers/reason-category.js';
import type { AccessibilityStatement, FailingCriterion, StatementWaiver } from '../statement.js';
import * as words from './words.js';

/**
 * The statement as Markdown, the same sections in the same order as the HTML page. Every value goes
 * through the kernel's markdown text function, so nothing a scanned page or a person typed becomes markup,
 * a link or a mention; the two addresses the statement links (the standard and the enforcement body) are
 * links only when they are http(s). Pure.
 */

const t = markdownText;

function link(url: string): string {
  const dest = linkDestination(url);
  return dest ? `[${t(url)}](${dest})` : t(url);
}

function criterion(c: FailingCriterion): string[] {
  const remarks = words.criterionRemarks(c);
  return [
    `- **${t(words.criterionHeading(c))}**`,
    '',
    ...(remarks === null ? [] : [`  ${t(remarks)}`, '']),
    `  ${t(words.criterionWhere(c))}`,
    ...(c.pages.length > 0 ? ['', ...c.pages.map((p) => `  - ${markdownCode(p)}`)] : []),
    '',
  ];
}

function waiver(w: StatementWaiver): string[] {
  return [`- **${t(`${words.waiverScope(w)}.`)}** ${t(words.waiverReason(w))}`];
}

function category(c: WaiverReasonCategory, lines: string[]): string[] {
  return [`### ${t(words.CATEGORY_HEADINGS[c])}`, '', ...lines, ''];
}

function nonAccessible(s: AccessibilityStatement): string[] {
  const n = s.non_accessible;
  const listed = (c: WaiverReasonCategory, ws: StatementWaiver[]) =>
    ws.length === 0 ? [t(words.noneUnder(c))] : ws.flatMap(waiver);
  const failing = n.non_compliance.criteria.flatMap(criterion);
  const accepted = n.non_compliance.waivers;
  const nonCompliance =
    failing.length + accepted.length === 0
      ? [t(words.noneUnder('non-compliance'))]
      : [
          ...failing,
          ...(accepted.length > 0
            ? ['Issues accepted until they are fixed:', '', ...accepted.flatMap(waiver)]
            : []),
        ];
  return [
    '## Non-accessible content',
    '',
    'The content listed below is non-accessible for the following reasons.',
    '',
    ...category('non-compliance', nonCompliance),
    ...category('disproportionate-burden', listed('disproportionate-burden', n.disproportionate_burden)),
    ...category('outside-scope', listed('outside-scope', n.outside_scope)),
    '### Accessible alternatives',
    '',
    t(words.alternatives(s)),
    '',
  ];
}

function contact(s: AccessibilityStatement): string[] {
  const a = s.answers;
  const ways = [
    a.contact_email ? `- E-mail: ${t(a.contact_email)}` : null,
    a.contact_phone ? `- Phone: ${t(a.contact_phone)}` : null,
    a.contact_url ? `- Web: ${link(a.contact_url)}` : null,
  ].filter((x): x is string => x !== null);
  return [
    '## Feedback and contact information',
    '',
    t(words.FEEDBACK_INTRO),
    '',
    t(words.answerOr(a.feedback)),
    '',
    ...(ways.length > 0 ? ways : [t(words.NOT_ANSWERED)]),
    '',
  ];
}

export function renderStatementMarkdown(s: AccessibilityStatement): string {
  const c = s.compliance;
  const draft =
    s.status === 'draft' && s.missing.length > 0
      ? [
          'Before it can be published, a person has to answer:',
          '',
          ...s.missing.map((m) => `- ${t(m.question)}`),
          '',
        ]
      : [];
  return [
    `# ${t(words.title(s))}`,
    '',
    `**${t(words.statusLine(s))}**`,
    '',
    ...draft,
    ...words.introduction(s).flatMap((p) => [t(p), '']),
    '## Compliance status',
    '',
    t(words.complianceSentence(s)),
    '',
    ...c.reasons.map((r) => `- ${t(r)}`),
    '',
    t(words.complianceBasis(s)),
    '',
    `Standard: ${link(c.standard.url)}`,
    '',
    ...nonAccessible(s),
    '## Preparation of this accessibility statement',
    '',
    ...words.preparation(s).flatMap((p) => [t(p), '']),
    ...contact(s),
    '## Enforcement procedure',
    '',
    t(words.enforcementSentence(s)),
    '',
    s.answers.enforcement_url ? link(s.answers.enforcement_url) : t(words.NOT_ANSWERED),
    '',
  ].join('\n');
}
