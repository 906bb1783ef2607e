import type { VpatDiff } from '../diff.js';
import { CONFORMANCE_LABELS, escapeHtml } from './html.js';

/** The comparison of two reports as one accessible HTML page (headings, tables with headers). Pure. */

const e = escapeHtml;

function table(caption: string, headers: string[], rows: string[][]): string {
  if (rows.length === 0) return `<p>${e(caption)}: none.</p>`;
  const head = headers.map((h) => `<th scope="col">${e(h)}</th>`).join('');
  const body = rows
    .map(
      ([first, ...rest]) =>
        `<tr><th scope="row">${first}</th>${rest.map((c) => `<td>${c}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<table><caption>${e(caption)}</caption><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

const level = (s: { conformance: keyof typeof CONFORMANCE_LABELS; basis: string } | null) =>
  s ? `${e(CONFORMANCE_LABELS[s.conformance])} (${e(s.basis)})` : '—';

export function renderVpatDiffHtml(diff: VpatDiff): string {
  const title = `Changes from report ${diff.from.id} to ${diff.to.id}`;
  const criteria = table(
    'Criteria whose level, basis or remarks changed',
    ['Criterion', 'Changed', 'Before', 'After', 'Remarks now'],
    diff.criteria.map((c) => [
      `${e(c.id)} ${e(c.title)}`,
      e(c.changed.join(', ')),
      level(c.from),
      level(c.to),
      e(c.to?.remarks ?? '—'),
    ]),
  );
  const v = diff.violations;
  const violations = table(
    'Violations by rule',
    ['Rule', 'Change', 'Issues before', 'Issues after', 'Pages after'],
    [
      ...v.new.map((r) => [e(r.rule), 'new', '0', String(r.issues), String(r.pages_affected)]),
      ...v.resolved.map((r) => [e(r.rule), 'resolved', String(r.issues), '0', '0']),
      ...v.changed.map((r) => [
        e(r.rule),
        'changed',
        String(r.from.issues),
        String(r.to.issues),
        String(r.to.pages_affected),
      ]),
    ],
  );
  const o = diff.overrides;
  const decision = (x: { conformance: keyof typeof CONFORMANCE_LABELS; author: string; remarks: string }) =>
    `${e(CONFORMANCE_LABELS[x.conformance])} by ${e(x.author)}: ${e(x.remarks)}`;
  const overrides = table(
    'Reviewers’ decisions',
    ['Criterion', 'Change', 'Decision'],
    [
      ...o.added.map((x) => [e(x.criterion), 'added', decision(x)]),
      ...o.dropped.map((x) => [e(x.criterion), 'dropped', decision(x)]),
      ...o.changed.map((x) => [e(x.criterion), 'changed', decision(x.to)]),
      ...o.made_stale.map((x) => [e(x.criterion), 'made stale', e(x.stale_reason ?? '')]),
    ],
  );
  const ref = (r: VpatDiff['from']) =>
    `${e(r.id)} (version ${r.version}, ${e(r.status)}, scan ${e(r.scan_id)}, ${e(r.created_at.slice(0, 10))})`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; color: #1a1a1a; background: #fff; margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1.5rem; }
caption { text-align: left; font-weight: 600; }
th, td { border: 1px solid #595959; padding: 0.4rem 0.5rem; text-align: left; vertical-align: top; }
thead th { background: #e8e8e8; }
</style>
</head>
<body>
<main>
<h1>${e(title)}</h1>
<p>From ${ref(diff.from)} to ${ref(diff.to)}.</p>
<section aria-labelledby="h-criteria"><h2 id="h-criteria">Criteria</h2>${criteria}</section>
<section aria-labelledby="h-violations"><h2 id="h-violations">Violations</h2>${violations}</section>
<section aria-labelledby="h-overrides"><h2 id="h-overrides">Reviewers’ decisions</h2>${overrides}</section>
</main>
</body>
</html>
`;
}
