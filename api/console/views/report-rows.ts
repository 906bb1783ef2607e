import { agentFixesWords } from '../../domain/vpat/agent-fixes.js';
import { CONFORMANCE_LABELS } from '../../domain/vpat/render/html.js';
import type { ReportCriterion, VpatReport } from '../../domain/vpat/report.js';
import { markup, type Html } from '../../../core/text/html.js';
import { dataTable } from './data-table.js';
import { readableCount, when } from './parts.js';

/** A row's automated evidence in words. */
export function evidenceText(c: ReportCriterion): string {
  const e = c.evidence;
  const parts = [
    e.issues
      ? `${readableCount(e.issues, 'issue')} on ${e.pages_affected} of ${readableCount(e.pages_total, 'page')}`
      : null,
    e.incomplete ? `${readableCount(e.incomplete, 'result')} to review` : null,
    e.rules.length ? `rules: ${e.rules.join(', ')}` : null,
    agentFixesWords(c),
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : 'none';
}

function answerFrom(c: ReportCriterion): string {
  if (!c.override) return c.source;
  const how = c.override.kind === 'confirm' ? 'confirmed by' : 'decided by';
  return `${how} ${c.override.author}, ${c.override.created_at.slice(0, 10)}`;
}

/** Every criterion with its level, remarks, evidence and who answered it. */
export function criteriaTable(criteria: ReportCriterion[], caption: string): Html {
  return dataTable(
    caption,
    ['Criterion', 'Level', 'Conformance', 'Remarks', 'Evidence', 'Answer from'],
    criteria.map((c) => ({
      id: `c-${c.id}`,
      cells: [
        `${c.id} ${c.title}`,
        c.level ?? '—',
        markup`${CONFORMANCE_LABELS[c.conformance]}${c.needs_review ? markup` <span class="badge waived">needs review</span>` : null}`,
        c.remarks,
        evidenceText(c),
        answerFrom(c),
      ],
    })),
  );
}

/** What the report is about, which version this is and where its evidence comes from. */
export function reportFacts(r: VpatReport): Html {
  return markup`<dl class="facts">
    <dt>Product</dt>
    <dd>${r.product.name} ${r.product.version}${r.product.vendor ? `, ${r.product.vendor}` : ''}</dd>
    <dt>Status</dt>
    <dd>${r.status === 'final' ? 'final (published)' : 'draft'}, version ${r.version ?? 1}</dd>
    <dt>Site</dt>
    <dd><a href=${`/sites/${r.siteId}`}>${r.siteId}</a></dd>
    <dt>Evidence</dt>
    <dd><a href=${`/scans/${r.scan_id}`}>scan of ${when(r.scan.created_at)}</a></dd>
    <dt>Standard</dt>
    <dd>${r.catalog}</dd>
    <dt>Made</dt>
    <dd>${when(r.created_at)} by ${r.created_by.name}</dd>
    ${
      r.previous_id
        ? markup`<dt>Made from</dt>
          <dd><a href=${`/reports/${r.previous_id}`}>the previous version</a></dd>`
        : null
    }
  </dl>`;
}
