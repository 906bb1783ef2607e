import type { Knex } from 'knex';
import { dialectOf } from '../db.js';

/**
 * A scan's issues in the form the deploy gate reads them: its fingerprints, each issue's row id with
 * its impact and kind, and each issue's page, each list concatenated in one value (the drivers' cost
 * is per row and column, so one row of three strings reads 50,000 issues faster than plain rows of
 * their fingerprints).
 *
 * On PostgreSQL the values are stored once, in the transaction that completes the scan (a complete
 * scan's issues never change), and read on every trigger that compares it: as its head, and far more
 * often as its baseline. Aggregating a scan's rows costs PostgreSQL far more on each trigger (each row
 * is fetched from the table, and the fingerprint is its last column) than reading the stored values,
 * and storing them costs once, at completion. SQLite aggregates in-process, without a round trip per
 * row, and keeps the aggregate: stored, the values only raised the peak memory of completing a scan.
 * The figures are in bench/README.md ("Figures behind the code").
 */

export interface GateColumnsText {
  /** Fingerprints, comma-separated (they are hex: they hold no comma); '' for no issue. */
  fingerprints: string;
  /** Per issue, in the same order: `id × 16 + code` (code: impact rank × 2, + 1 when incomplete). */
  codes: string;
  /** Per issue, in the same order: its page's index in the scan. */
  pages: string;
}

/** Impact and kind as one small integer, as `issueCode` (domain/gate/issues.ts) computes it. */
const CODE_SQL =
  "((case impact when 'critical' then 0 when 'serious' then 1 when 'moderate' then 2 " +
  "when 'minor' then 3 else 4 end) * 2 + (case when kind = 'incomplete' then 1 else 0 end))";

/**
 * The aggregates over the same rows in the same order, so the lists line up. In index order, not scan
 * order: the matcher orders the few it compares by row id itself.
 */
function aggregates(db: Knex): string {
  const concat = (expr: string) =>
    dialectOf(db) === 'postgres'
      ? `coalesce(string_agg(cast(${expr} as text), ','), '')`
      : `coalesce(group_concat(${expr}, ','), '')`;
  return (
    `${concat('fingerprint')} as fingerprints, ${concat(`id * 16 + ${CODE_SQL}`)} as codes, ` +
    `${concat('page_index')} as pages`
  );
}

/**
 * Stores the gate's columns of a scan whose issues are all written (PostgreSQL), in the transaction
 * that completes it.
 */
export async function writeGateColumns(trx: Knex.Transaction, scanId: string): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await trx.raw(
    `insert into scan_gate_columns (scan_id, fingerprints, codes, pages) ` +
      `select ?, ${aggregates(trx)} from scan_issues where scan_id = ?`,
    [scanId, scanId],
  );
}

/**
 * The gate's columns of a scan: as stored at completion, or aggregated from its issues (SQLite, and
 * scans completed without them: before migration 0013, or by an older instance during an upgrade).
 */
export async function readGateColumns(db: Knex, scanId: string): Promise<GateColumnsText> {
  if (dialectOf(db) === 'postgres') {
    const stored = await db('scan_gate_columns')
      .where({ scan_id: scanId })
      .first<GateColumnsText | undefined>('fingerprints', 'codes', 'pages');
    if (stored) return stored;
  }
  const row = await db('scan_issues')
    .where({ scan_id: scanId })
    .first<GateColumnsText | undefined>(db.raw(aggregates(db)));
  return row ?? { fingerprints: '', codes: '', pages: '' };
}
