import type { VpatReport } from './report.js';

/** The one sentence every format opens with: final (who published it) or draft (and how much is left). */
export function statusLine(report: VpatReport): string {
  if (report.status === 'final') {
    const by = report.published ? ` by ${report.published.by} on ${report.published.at.slice(0, 10)}` : '';
    return `Final report, published${by}: every criterion has a person’s decision or a failure found by the scan.`;
  }
  const left = report.summary.undecided ?? report.summary.needs_review;
  return (
    `Draft report (version ${report.version ?? 1}): ${left} ${left === 1 ? 'criterion still needs' : 'criteria still need'} ` +
    'a person’s decision before it can be published and signed.'
  );
}
