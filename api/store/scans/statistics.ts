import type { Knex } from 'knex';
import { dialectOf } from '../db.js';

/** Fewer issues than this are read in a few screens whatever the plan. */
const SMALL_SCAN_ISSUES = 10_000;
/** PostgreSQL's own autovacuum analyzes a table once a tenth of it changed; a scan this big does not wait for it. */
const GROWTH_SHARE = 0.1;

/**
 * PostgreSQL plans every read of a scan's issues from the table's statistics. Statistics taken while
 * the table was small make it read all of a new large scan's rows and sort them for each screen of a
 * keyset read, instead of walking the `(scan_id, id)` index a screen at a time, so reading the scan
 * costs the square of its size; and they wait for autovacuum, which may be late or turned off. So a
 * completed scan holding a tenth or more of the rows the statistics know has the table analyzed
 * before it is answered, as PostgreSQL advises after a bulk load. SQLite's plans do not depend on it.
 * True when it analyzed.
 */
export async function refreshIssueStatistics(db: Knex, scanIssues: number): Promise<boolean> {
  if (dialectOf(db) !== 'postgres' || scanIssues < SMALL_SCAN_ISSUES) return false;
  const known = await db.raw<{ rows: Array<{ reltuples: number | string }> }>(
    "select reltuples from pg_class where oid = 'scan_issues'::regclass",
  );
  const rows = Number(known.rows[0]?.reltuples ?? -1);
  // -1: never analyzed.
  if (rows >= 0 && scanIssues < rows * GROWTH_SHARE) return false;
  await db.raw('analyze scan_issues');
  return true;
}
