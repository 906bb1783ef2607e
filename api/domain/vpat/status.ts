import type { ReportBehind, VpatReport } from './report.js';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Newer evidence in words: "7 new results, 1 newer scan", or "up to date". */
export function behindSummary(b: ReportBehind): string {
  const parts = [
    b.results > 0 ? plural(b.results, 'new result', 'new results') : null,
    b.scans > 0 ? plural(b.scans, 'newer scan', 'newer scans') : null,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'up to date';
}

/** Whether a version was made from older evidence than there is now. */
export const isBehind = (b: ReportBehind | undefined): boolean =>
  b !== undefined && (b.results > 0 || b.scans > 0);

/** The one sentence every format opens with: final (who published it) or draft (and how much is left). */
export function statusLine(report: VpatReport): string {
  if (report.status === 'final') {
    const by = report.published ? ` by ${report.published.by} on ${report.published.at.slice(0, 10)}` : '';
    const behind = report.published?.behind;
    // Published as it was, knowingly: the report says what it left out.
    const left = isBehind(behind)
      ? `, as it was, without the evidence recorded after it was made (${behindSummary(behind!)})`
      : '';
    return `Final report, published${by}${left}: every criterion has a person’s decision or a failure found by the scan.`;
  }
  const left = report.summary.undecided ?? report.summary.needs_review;
  return (
    `Draft report (version ${report.version ?? 1}): ${left} ${left === 1 ? 'criterion still needs' : 'criteria still need'} ` +
    'a person’s decision before it can be published and signed.'
  );
}
