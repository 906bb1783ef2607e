import { csvCell } from '../history/csv.js';

/** The org view's exports as CSV (RFC 4180, CRLF, one header row) for BI tools. */

export function csvTable(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
