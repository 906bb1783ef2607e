import { listWords } from '../../../domain/vpat/remarks.js';
import { CONFORMANCE_LABELS } from '../../../domain/vpat/render/html.js';
import type { AccessibilityStatement, StatementWaiver } from '../../../domain/statement/statement.js';
import {
  CATEGORY_HEADINGS,
  complianceSentence,
  waiverScope,
} from '../../../domain/statement/render/words.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { dataTable, num } from '../../views/data-table.js';
import { when } from '../../views/parts.js';

/** The statement page's derived part: what the evidence says, and where it comes from. */

function sources(s: AccessibilityStatement): Html {
  const e = s.preparation.evidence;
  return markup`<dl class="facts">
    <dt>Report</dt>
    <dd>
      <a href=${`/reports/${e.report.id}`}>${e.report.title}, version ${e.report.version}</a>
      ${`, published by ${e.report.published.by} on ${e.report.published.at.slice(0, 10)}`}
    </dd>
    <dt>Scan</dt>
    <dd><a href=${`/scans/${e.scan.id}`}>${e.scan.pages} pages</a>, ${when(e.scan.created_at)}</dd>
    <dt>Assessment</dt>
    <dd>
      ${
        e.assessment
          ? markup`<a href=${`/assessments/${e.assessment.id}`}>${e.assessment.title}</a>`
          : 'None: the report rests on the automated scan and people’s review of it'
      }
    </dd>
    <dt>Standard</dt>
    <dd>${s.compliance.standard.label}</dd>
  </dl>`;
}

function failingTable(s: AccessibilityStatement): Html {
  const rows = s.non_accessible.non_compliance.criteria;
  return dataTable(
    'Criteria that do not fully support',
    ['Criterion', 'Conformance', num('Issues'), 'Pages', 'Rules'],
    rows.map((c) => [
      `${c.id} ${c.title}${c.level ? ` (Level ${c.level})` : ''}`,
      CONFORMANCE_LABELS[c.conformance],
      c.issues,
      c.pages_affected === 0
        ? 'Found by people'
        : markup`${c.pages.slice(0, 5).map((p, i) => markup`${i > 0 ? ', ' : ''}<code>${p}</code>`)}${
            c.pages_affected > 5 ? ` and ${c.pages_affected - 5} more` : ''
          }`,
      listWords(c.rules) || '—',
    ]),
    { empty: 'Every applicable criterion supports: nothing fails.' },
  );
}

function waiverRows(s: AccessibilityStatement): StatementWaiver[] {
  const n = s.non_accessible;
  return [...n.non_compliance.waivers, ...n.disproportionate_burden, ...n.outside_scope];
}

function waiversTable(s: AccessibilityStatement): Html {
  return dataTable(
    'Active waivers by reason category',
    ['Category', 'Applies to', 'Reason', 'Ends'],
    waiverRows(s).map((w) => [
      CATEGORY_HEADINGS[w.category],
      waiverScope(w),
      w.reason,
      w.expires_at ? w.expires_at.slice(0, 10) : '—',
    ]),
    { empty: 'The site has no active waiver.', rowHeader: 1 },
  );
}

/** What the evidence gives the statement: read again whenever a draft changes, frozen once published. */
export function evidenceSection(s: AccessibilityStatement): Html {
  return markup`<h2 id="evidence">From the evidence</h2>
    <p>
      ${
        s.status === 'draft'
          ? 'These parts come from the published report, its scan and the site’s active waivers. They are read again whenever the draft changes.'
          : 'These parts came from the published report, its scan and the site’s active waivers when the statement was published.'
      }
    </p>
    ${sources(s)}
    <h3>Compliance status</h3>
    <p><strong>${complianceSentence(s)}</strong></p>
    <ul>
      ${s.compliance.reasons.map((r) => markup`<li>${r}</li>`)}
    </ul>
    <h3>Non-accessible content</h3>
    ${failingTable(s)} ${waiversTable(s)}`;
}
