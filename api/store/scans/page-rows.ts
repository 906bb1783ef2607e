import type { Knex } from 'knex';
import type { PreparedPage } from '../../domain/scans/preparation.js';

/** `scan_pages` rows as multi-row VALUES: the one mapping of a prepared page to its columns. */

const PAGE_COLUMNS =
  'scan_id page_index url normalized_url title final_url http_status issue_count rules_run rules_inapplicable'.split(
    ' ',
  );
const PAGE_TUPLE = `(${PAGE_COLUMNS.map(() => '?').join(', ')})`;
export const pagesSql = (rows: number) =>
  `insert into scan_pages (${PAGE_COLUMNS.map((c) => `"${c}"`).join(', ')}) values ` +
  new Array(rows).fill(PAGE_TUPLE).join(', ');

/** Pushes a page's values in PAGE_COLUMNS order. */
export function pushPageValues(out: Knex.Value[], scanId: string, p: PreparedPage): void {
  // [] (nothing ran) and NULL (unknown) differ.
  const rulesRun = p.rulesRun === null ? null : JSON.stringify(p.rulesRun);
  out.push(
    scanId,
    p.index,
    p.url,
    p.normalizedUrl,
    p.title,
    p.finalUrl,
    p.httpStatus,
    p.issueCount,
    rulesRun,
    p.rulesInapplicable === null ? null : JSON.stringify(p.rulesInapplicable),
  );
}
