import type { Knex } from 'knex';
import type { PreparedPage } from '../../domain/scans/preparation.js';
import { nextTurn } from '../../domain/turns.js';

/**
 * `scan_pages` rows: written as multi-row VALUES (the one mapping of a prepared page to its columns), and
 * read back in page order a batch at a time.
 */

const PAGE_COLUMNS =
  'scan_id page_index url normalized_url title final_url http_status issue_count rules_run rules_inapplicable viewport'.split(
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
    p.viewport,
  );
}

/** Pages read per query. */
const PAGE_BATCH = 5_000;

/**
 * A scan's page rows in page order, a keyset batch a query with a turn for other requests between, so
 * a scan of 100,000 pages is never one long query or one long turn.
 */
export async function* scanPageRows<R extends { page_index: number | string }>(
  db: Knex,
  scanId: string,
  columns: readonly string[] | '*',
): AsyncGenerator<R[]> {
  for (let after = -1; ;) {
    const rows = (await db('scan_pages')
      .where({ scan_id: scanId })
      .andWhere('page_index', '>', after)
      .orderBy('page_index', 'asc')
      .limit(PAGE_BATCH)
      .select(columns === '*' ? '*' : [...columns])) as R[];
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE_BATCH) return;
    after = Number(rows[rows.length - 1].page_index);
    await nextTurn();
  }
}
