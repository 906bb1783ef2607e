import type { Knex } from 'knex';
import { dialectOf } from '../db.js';
import { issueFromRow, type IssueRow, type ScanIssueRecord } from './scans.js';

/**
 * The one cursor over a scan's issues. Every reader of issue rows walks it a keyset page at a time: the
 * paged `GET /api/v1/scans/{id}/issues`, the streamed `GET /api/v1/scans/{id}` and the console's scan
 * page. A page costs the same memory and time at any depth of any scan. (The VPAT reads counts, not
 * rows: store/vpat/evidence-groups.ts.)
 */

/** Narrows a scan's issues for reading: by impact (`unknown` = none given), rule and page. */
export interface IssueFilter {
  impact?: 'critical' | 'serious' | 'moderate' | 'minor' | 'unknown';
  rule?: string;
  pageIndex?: number;
}

/** Where the previous screen of issues ended, in (rule, impact, id) order. */
export interface IssueCursor {
  rule: string;
  impact: string | null;
  id: number;
}

/**
 * One keyset page: in submission order (`after` is the last issue id read, 0 to start) or each rule's
 * issues together in (rule, impact, id) order (`after` is the last issue's sort key).
 */
export type IssuePage = { limit: number; filter?: IssueFilter } & (
  { order: 'submission'; after: number } | { order: 'rule'; after?: IssueCursor }
);

const PAGE_INDEX = 'scan_issues_scan_id_page_index_index';

/**
 * A scan's issues under a filter (the cursor's rows, and what the console counts). With a page filter, SQLite is told to read that page's issues by the (scan, page) index: its planner
 * otherwise walks the whole scan in the rule index's order (which the ORDER BY asks for) and reads every
 * row to test the page. PostgreSQL's planner weighs this itself.
 */
export function filteredIssues(db: Knex, scanId: string, filter: IssueFilter): Knex.QueryBuilder {
  const sqlite = dialectOf(db) === 'sqlite';
  const from =
    filter.pageIndex !== undefined && sqlite ? db.raw(`scan_issues indexed by ${PAGE_INDEX}`) : 'scan_issues';
  const q = db.from(from).where('scan_id', scanId);
  if (filter.impact === 'unknown') q.whereNull('impact');
  else if (filter.impact) q.andWhere('impact', filter.impact);
  if (filter.rule !== undefined) q.andWhere('rule', filter.rule);
  if (filter.pageIndex !== undefined) q.andWhere('page_index', filter.pageIndex);
  return q;
}

/** Rows strictly after (rule, impact, id); issues without an impact come first within a rule. */
function afterRuleKey(q: Knex.QueryBuilder, { rule, impact, id }: IssueCursor): void {
  // The plain bound lets the index seek to the rule instead of testing every entry before it.
  q.andWhere('rule', '>=', rule);
  q.andWhere((w) => {
    w.where('rule', '>', rule).orWhere((sameRule) => {
      sameRule.where('rule', rule);
      if (impact === null) {
        sameRule.andWhere((x) => {
          x.whereNotNull('impact').orWhere((y) => {
            y.whereNull('impact').andWhere('id', '>', id);
          });
        });
      } else {
        sameRule.andWhere((x) => {
          x.where('impact', '>', impact).orWhere((y) => {
            y.where('impact', impact).andWhere('id', '>', id);
          });
        });
      }
    });
  });
}

/** The query of one keyset page (exported for the tests that read its plan). */
export function cursorQuery(db: Knex, scanId: string, page: IssuePage): Knex.QueryBuilder {
  const q = filteredIssues(db, scanId, page.filter ?? {}).limit(page.limit);
  if (page.order === 'submission') {
    q.andWhere('id', '>', page.after).orderBy('id', 'asc');
    return q;
  }
  const pg = dialectOf(db) === 'postgres';
  q.orderBy('rule', 'asc')
    .orderByRaw(pg ? 'impact asc nulls first' : 'impact asc')
    .orderBy('id', 'asc');
  if (page.after) afterRuleKey(q, page.after);
  return q;
}

/** One page of a scan's issues, every field. */
export async function readIssues(db: Knex, scanId: string, page: IssuePage): Promise<ScanIssueRecord[]> {
  return (await cursorQuery(db, scanId, page).select<IssueRow[]>()).map(issueFromRow);
}
