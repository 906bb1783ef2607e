import { csvTable } from '../../../core/text/csv.js';
import type { HistoryPoint } from './series.js';

/** A site's history as CSV (core/text/csv.ts): one row per interval. */
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
  return csvTable(header, rows);
}
