import type { Knex } from 'knex';
import { dialectOf } from './db.js';

/**
 * What the deploy gate's matcher reads of the issues it could not pair by fingerprint (tables of the
 * scans feature, read only here): where each is (rule and page; it pairs within one rule and page) and
 * what identifies its element (selector and HTML).
 */

/** What the matcher's similarity step needs of an issue. */
export interface MatchRow {
  id: number;
  rule: string;
  pageIndex: number;
  selector: string | null;
  html: string | null;
}

/** The matcher reads the start of a snippet only (element-identity.ts looks at 2,000 characters). */
const HTML_PREFIX = 2_000;

/**
 * From this share of the scan's issues on, PostgreSQL may walk the scan's own rows (filtering them by
 * the hashed id list) instead of looking the ids up by primary key. Without statistics for the table
 * (freshly filled) it plans the primary-key-only form as a sequential scan of the whole table: 27 ms
 * for 10,000 ids in a table of 150,000 rows, against 16 ms walking the scan's 50,000; with statistics
 * it looks the ids up by primary key either way (17 ms).
 */
const SCAN_WALK_SHARE = 1 / 8;

/**
 * The similarity step's details of these issues (row ids) of one scan of `scanSize` issues, in no
 * particular order. One statement and one row whatever the count: the ids go as one JSON array
 * (SQLite's `json_each`) or one array parameter (PostgreSQL's `any`), and the rows come back as one
 * JSON array (the drivers' cost is per row and column).
 */
export async function matchDetails(
  db: Knex,
  scanId: string,
  ids: readonly number[],
  scanSize: number,
): Promise<MatchRow[]> {
  if (ids.length === 0) return [];
  const pg = dialectOf(db) === 'postgres';
  const columns = `id, rule, page_index, selector, substr(html, 1, ${HTML_PREFIX})`;
  // Otherwise (and always on SQLite) by primary key only, the scan checked on the rows found: for a few
  // ids, an indexable `scan_id = ?` would have both databases walk the scan's whole index (SQLite's
  // unary `+` and `|| ''` make the term unindexable).
  const walk = pg && ids.length >= scanSize * SCAN_WALK_SHARE;
  const row = await db('scan_issues')
    .first<{ r: string | unknown[] | null } | undefined>(
      db.raw(
        pg ? `json_agg(json_build_array(${columns})) as r` : `json_group_array(json_array(${columns})) as r`,
      ),
    )
    .whereRaw(
      pg
        ? `id = any(?::bigint[]) and scan_id${walk ? '' : " || ''"} = ?`
        : 'id in (select value from json_each(?)) and +scan_id = ?',
      [pg ? (ids as number[]) : JSON.stringify(ids), scanId],
    );
  const rows = (typeof row?.r === 'string' ? JSON.parse(row.r) : (row?.r ?? [])) as unknown[][];
  return rows.map((r) => ({
    id: Number(r[0]),
    rule: r[1] as string,
    pageIndex: r[2] as number,
    selector: r[3] as string | null,
    html: r[4] as string | null,
  }));
}
