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
 * Columns of these issues (row ids) of one scan, one array per issue in the columns' order, the row id
 * first. One statement and one row whatever the count: the ids go as one JSON array (SQLite's
 * `json_each`) or one array parameter (PostgreSQL's `any`), and the rows come back as one JSON array
 * (the drivers' cost is per row and column).
 */
async function columnsByIds(db: Knex, scanId: string, ids: readonly number[], columns: string) {
  if (ids.length === 0) return [];
  const pg = dialectOf(db) === 'postgres';
  const all = `id, scan_id, ${columns}`;
  // By primary key only: with `scan_id = ?` as well, SQLite walks the scan's whole index and table.
  const row = await db('scan_issues')
    .first<{ r: string | unknown[] | null } | undefined>(
      db.raw(pg ? `json_agg(json_build_array(${all})) as r` : `json_group_array(json_array(${all})) as r`),
    )
    .whereRaw(pg ? 'id = any(?::bigint[])' : 'id in (select value from json_each(?))', [
      pg ? (ids as number[]) : JSON.stringify(ids),
    ]);
  const rows = (typeof row?.r === 'string' ? JSON.parse(row.r) : (row?.r ?? [])) as unknown[][];
  return rows.filter((r) => r[1] === scanId);
}

/** The similarity step's details of these issues, by row id. */
export async function matchDetails(db: Knex, scanId: string, ids: readonly number[]): Promise<MatchRow[]> {
  const rows = await columnsByIds(
    db,
    scanId,
    ids,
    `rule, page_index, selector, substr(html, 1, ${HTML_PREFIX})`,
  );
  return rows.map((r) => ({
    id: Number(r[0]),
    rule: r[2] as string,
    pageIndex: r[3] as number,
    selector: r[4] as string | null,
    html: r[5] as string | null,
  }));
}
