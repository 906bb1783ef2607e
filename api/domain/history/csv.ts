import type { HistoryPoint } from './series.js';

/**
 * A site's history as CSV (RFC 4180, CRLF) for BI tools: one header row, one row per interval. A cell
 * that a spreadsheet would run as a formula is prefixed with `'`.
 */
export function historyCsv(siteId: string, points: readonly HistoryPoint[]): string {
  const header = [
    'site_id',
    'start',
    'end',
    'open_total',
    'open_critical',
    'open_serious',
    'open_moderate',
    'open_minor',
    'open_unknown',
    'new',
    'fixed',
    'regressions',
    'overdue',
  ];
  const rows = points.map((p) => [
    siteId,
    p.start,
    p.end,
    p.openTotal,
    p.open.critical,
    p.open.serious,
    p.open.moderate,
    p.open.minor,
    p.open.unknown,
    p.new,
    p.fixed,
    p.regressions,
    p.overdue,
  ]);
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export function csvCell(value: string | number): string {
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
