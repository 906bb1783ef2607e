import type { Knex } from 'knex';
import type { PreparedPass } from '../../domain/scans/preparation.js';

/**
 * A scan's passing elements (migration 0031): written with its pages and issues by the scan row writer
 * (writes.ts), read by the deploy gate for the pages of claimed fixes.
 */

/** Rows per insert statement: 6 values each, well below SQLite's bound-variable limit. */
export const PASSES_PER_INSERT = 200;

const COLUMNS = ['scan_id', 'page_index', 'rule', 'selector', 'html', 'fingerprint'];
const TUPLE = `(${COLUMNS.map(() => '?').join(', ')})`;

/** One insert of `passes` (at most PASSES_PER_INSERT): its SQL and values. */
export function passesInsert(scanId: string, passes: readonly PreparedPass[]) {
  const sql = `insert into scan_passes (${COLUMNS.join(', ')}) values ` + passes.map(() => TUPLE).join(', ');
  const bindings: Knex.Value[] = [];
  for (const p of passes) bindings.push(scanId, p.pageIndex, p.rule, p.selector, p.html, p.fingerprint);
  return { sql, bindings };
}

export interface PassRow {
  pageIndex: number;
  rule: string;
  selector: string | null;
  html: string | null;
  fingerprint: string;
}

/** The scan's passing elements of `rules` on the pages at `pageIndexes`. */
export async function scanPassesOn(
  db: Knex,
  scanId: string,
  pageIndexes: readonly number[],
  rules: readonly string[],
): Promise<PassRow[]> {
  if (pageIndexes.length === 0 || rules.length === 0) return [];
  const out: PassRow[] = [];
  for (let i = 0; i < pageIndexes.length; i += 200) {
    const rows = await db('scan_passes')
      .where({ scan_id: scanId })
      .whereIn('page_index', pageIndexes.slice(i, i + 200))
      .whereIn('rule', rules)
      .orderBy('id')
      .select<PassRow[]>('page_index as pageIndex', 'rule', 'selector', 'html', 'fingerprint');
    out.push(...rows);
  }
  return out;
}

/** Which of the pages at `pageIndexes` the scan sent passing elements for (of any rule). */
export async function pagesWithPasses(
  db: Knex,
  scanId: string,
  pageIndexes: readonly number[],
): Promise<Set<number>> {
  const out = new Set<number>();
  for (let i = 0; i < pageIndexes.length; i += 200) {
    const rows = await db('scan_passes')
      .where({ scan_id: scanId })
      .whereIn('page_index', pageIndexes.slice(i, i + 200))
      .distinct<Array<{ pageIndex: number }>>('page_index as pageIndex');
    for (const r of rows) out.add(Number(r.pageIndex));
  }
  return out;
}
