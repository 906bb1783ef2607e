import type { Knex } from 'knex';
import { dialectOf } from '../db.js';

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
 * The similarity step's details of these issues (row ids) of one scan, in no particular order. One
 * statement and one row whatever the count: the ids go as one JSON array (SQLite's `json_each`) or one
 * array parameter (PostgreSQL), and the rows come back as one string (the drivers' cost is per row and
 * column): a JSON array on SQLite, separated fields on PostgreSQL (pgRows).
 */
export async function matchDetails(db: Knex, scanId: string, ids: readonly number[]): Promise<MatchRow[]> {
  if (ids.length === 0) return [];
  if (dialectOf(db) === 'postgres') return pgMatchDetails(db, scanId, ids);
  const columns = `id, rule, page_index, selector, substr(html, 1, ${HTML_PREFIX})`;
  // By primary key only, the scan checked on the rows found: for a few ids, an indexable `scan_id = ?`
  // would have SQLite walk the scan's whole index (the unary `+` makes the term unindexable).
  const row = await db('scan_issues')
    .first<{ r: string | null } | undefined>(db.raw(`json_group_array(json_array(${columns})) as r`))
    .whereRaw('id in (select value from json_each(?)) and +scan_id = ?', [JSON.stringify(ids), scanId]);
  return toMatchRows(row?.r ? (JSON.parse(row.r) as unknown[][]) : []);
}

function toMatchRows(rows: unknown[][]): MatchRow[] {
  return rows.map((r) => ({
    id: Number(r[0]),
    rule: r[1] as string,
    pageIndex: r[2] as number,
    selector: r[3] as string | null,
    html: r[4] as string | null,
  }));
}

/**
 * PostgreSQL. The ids go through `array(select unnest(…))`: given the array itself, the planner sees
 * 10,000 ids and filters the whole table (or the scan's rows) by them; not knowing the count, it looks
 * them up by primary key. The rows come back as one string of fields (unit separator) and records
 * (record separator), cheaper to build than json_agg of json_build_array (bench/README.md, "Figures behind
 * the code"). A null selector or HTML is an empty
 * field, any other value is prefixed by `=`. The HTML is cut only when it may be longer than the
 * prefix (substr counts characters). A field holding a separator would change the count of records
 * or of fields (checked against count(*)): then the rows are read as JSON.
 */
async function pgMatchDetails(db: Knex, scanId: string, ids: readonly number[]): Promise<MatchRow[]> {
  const html = `case when octet_length(html) <= ${HTML_PREFIX} then html else substr(html, 1, ${HTML_PREFIX}) end`;
  // The ids as one comma-separated string: the driver (and knex's check of the bindings) would
  // otherwise walk an array of thousands of numbers.
  const where = "id = any(array(select unnest(string_to_array(?, ',')::bigint[]))) and scan_id || '' = ?";
  const bindings = [ids.join(','), scanId];
  const row = await db('scan_issues')
    .first<{ r: string | null; n: string | number } | undefined>(
      db.raw(
        `string_agg(concat(id, chr(31), rule, chr(31), page_index, chr(31), '=' || selector, chr(31), ` +
          `'=' || ${html}), chr(30)) as r, count(*) as n`,
      ),
    )
    .whereRaw(where, bindings);
  if (!row?.r) return [];
  const rows = pgRows(row.r, Number(row.n));
  if (rows) return rows;
  const json = await db('scan_issues')
    .first<{ r: unknown[][] | null } | undefined>(
      db.raw(`json_agg(json_build_array(id, rule, page_index, selector, ${html})) as r`),
    )
    .whereRaw(where, bindings);
  return toMatchRows(json?.r ?? []);
}

/** The records of pgMatchDetails' string; undefined when they are not `count` records of 5 fields. */
function pgRows(text: string, count: number): MatchRow[] | undefined {
  const records = text.split('\x1e');
  if (records.length !== count) return undefined;
  const out = new Array<MatchRow>(count);
  for (let k = 0; k < count; k++) {
    const f = records[k].split('\x1f');
    if (f.length !== 5) return undefined;
    out[k] = {
      id: Number(f[0]),
      rule: f[1],
      pageIndex: Number(f[2]),
      selector: f[3] === '' ? null : f[3].slice(1),
      html: f[4] === '' ? null : f[4].slice(1),
    };
  }
  return out;
}
