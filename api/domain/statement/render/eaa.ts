import { plural } from '../../../../core/text/wording.js';
import { escapeHtml } from '../../vpat/render/html.js';
import type { AccessibilityStatement } from '../statement.js';
import { htmlContactWays, htmlLink, htmlPage, paragraph, section } from './page.js';
import * as words from './words.js';

/**
 * The service information the European Accessibility Act asks a service provider to publish (Directive
 * (EU) 2019/882, Annex V): what the service is, and how it meets the accessibility requirements of Annex I,
 * which for services are that it be perceivable, operable, understandable and robust: WCAG's four
 * principles. Written from the same evidence as the statement, as one HTML page. Pure.
 */

export function eaaTitle(s: AccessibilityStatement): string {
  return `Accessibility information for ${s.scope.service}`;
}

function service(s: AccessibilityStatement): string {
  const facts: Array<[string, string]> = [
    ['Service', escapeHtml(`${s.scope.service} ${s.scope.version}`)],
    ['Provided by', escapeHtml(words.answerOr(s.answers.entity))],
    ['Address', s.scope.url ? htmlLink('url', s.scope.url) : '—'],
    ['Description', escapeHtml(s.scope.description ?? '—')],
  ];
  return section(
    'service',
    'The service',
    `<dl>${facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`).join('')}</dl>`,
  );
}

function requirements(s: AccessibilityStatement): string {
  const c = s.compliance;
  return section(
    'requirements',
    'How the service meets the accessibility requirements',
    paragraph(
      'The accessibility requirements for services (Directive (EU) 2019/882, Annex I) ask that the service be ' +
        'perceivable, operable, understandable and robust. These are the four principles of WCAG, whose Level A ' +
        `and AA success criteria are the requirements of ${c.standard.label} for the web.`,
    ) +
      paragraph(words.complianceSentence(s)) +
      `<ul>${c.principles.map((p) => `<li>${escapeHtml(words.principleSentence(p))}</li>`).join('')}</ul>` +
      paragraph(words.complianceBasis(s)),
  );
}

function shortfalls(s: AccessibilityStatement): string {
  const n = s.non_accessible;
  const failing = n.non_compliance.criteria;
  const exemptions = n.disproportionate_burden.length + n.outside_scope.length;
  const accepted = n.non_compliance.waivers.length;
  const summary =
    failing.length + exemptions + accepted === 0
      ? 'Nothing is listed as not accessible.'
      : [
          failing.length > 0
            ? `${plural(failing.length, 'criterion is', 'criteria are')} not met in full`
            : null,
          accepted > 0
            ? `${plural(accepted, 'accepted issue')} ${accepted === 1 ? 'is' : 'are'} to be fixed`
            : null,
          exemptions > 0
            ? `${plural(exemptions, 'exemption')} ${exemptions === 1 ? 'applies' : 'apply'}`
            : null,
        ]
          .filter(Boolean)
          .join('; ') + '. The accessibility statement lists each one, where it fails and why.';
  return section(
    'shortfalls',
    'Where the service does not meet them yet',
    paragraph(summary) +
      (failing.length > 0
        ? `<ul>${failing.map((f) => `<li>${escapeHtml(words.criterionHeading(f))}</li>`).join('')}</ul>`
        : '') +
      paragraph(`Accessible alternatives: ${words.alternatives(s)}`),
  );
}

function contact(s: AccessibilityStatement): string {
  const a = s.answers;
  const ways = htmlContactWays(a);
  return section(
    'contact',
    'Feedback and contact',
    paragraph(words.answerOr(a.feedback)) +
      (ways.length > 0
        ? `<ul>${ways.map((w) => `<li>${w}</li>`).join('')}</ul>`
        : paragraph(words.NOT_ANSWERED)),
  );
}

export function renderEaaServiceInformation(s: AccessibilityStatement): string {
  const body = [
    `<h1>${escapeHtml(eaaTitle(s))}</h1>`,
    `<p class="status"><strong>${escapeHtml(`From the accessibility statement: ${words.statusLine(s)}`)}</strong></p>`,
    service(s),
    requirements(s),
    shortfalls(s),
    contact(s),
  ];
  return htmlPage(eaaTitle(s), body.join('\n'));
}
