import type { VpatDiff } from '../../domain/vpat/diff.js';
import { CONFORMANCE_LABELS } from '../../domain/vpat/render/html.js';
import type { AppliedOverride } from '../../domain/vpat/report.js';
import { markup, type Html } from '../../../core/text/html.js';
import { dataTable } from './data-table.js';

type RowState = VpatDiff['criteria'][number]['from'];

const level = (s: RowState) => (s ? `${CONFORMANCE_LABELS[s.conformance]} (${s.basis})` : '—');
const decision = (o: AppliedOverride) => `${CONFORMANCE_LABELS[o.conformance]} by ${o.author}: ${o.remarks}`;
const ref = (r: VpatDiff['from']) =>
  markup`<a href=${`/reports/${r.id}`}>version ${r.version}</a> (${r.status}, ${r.created_at.slice(0, 10)})`;

/** What changed between two reports: criteria, violations by rule and reviewers' decisions. */
export function diffView(diff: VpatDiff): Html {
  const v = diff.violations;
  const o = diff.overrides;
  return markup`<p>From ${ref(diff.from)} to ${ref(diff.to)}.</p>
    <h2>Criteria</h2>
    ${dataTable(
      'Criteria whose level, basis or remarks changed',
      ['Criterion', 'Changed', 'Before', 'After', 'Remarks now'],
      diff.criteria.map((c) => [
        `${c.id} ${c.title}`,
        c.changed.join(', '),
        level(c.from),
        level(c.to),
        c.to?.remarks ?? '—',
      ]),
      { empty: 'No criterion changed.' },
    )}
    <h2>Violations</h2>
    ${dataTable(
      'Violations by rule',
      ['Rule', 'Change', 'Issues before', 'Issues after', 'Pages after'],
      [
        ...v.new.map((r) => [r.rule, 'new', 0, r.issues, r.pages_affected]),
        ...v.resolved.map((r) => [r.rule, 'resolved', r.issues, 0, 0]),
        ...v.changed.map((r) => [r.rule, 'changed', r.from.issues, r.to.issues, r.to.pages_affected]),
      ],
      { empty: 'No violation changed.' },
    )}
    <h2>Reviewers’ decisions</h2>
    ${dataTable(
      'Reviewers’ decisions added, dropped, changed or made stale',
      ['Criterion', 'Change', 'Decision'],
      [
        ...o.added.map((x) => [x.criterion, 'added', decision(x)]),
        ...o.dropped.map((x) => [x.criterion, 'dropped', decision(x)]),
        ...o.changed.map((x) => [x.criterion, 'changed', decision(x.to)]),
        ...o.made_stale.map((x) => [x.criterion, 'made stale', x.stale_reason ?? '']),
      ],
      { empty: 'No decision changed.' },
    )}`;
}
