import type { Knex } from 'knex';
import { issueFromRow, type IssueRow, type ScanIssueRecord, type ScanPageRecord } from './scans.js';
import { dialectOf } from '../db.js';

/** Narrows a scan's issues for reading: by impact (`unknown` = none given), rule and page. */
export interface IssueFilter {
  impact?: 'critical' | 'serious' | 'moderate' | 'minor' | 'unknown';
  rule?: string;
  pageIndex?: number;
}

/** The issues of one rule and impact in a scan: how many, which criteria, where to read about it. */
export interface RuleGroupRecord {
  rule: string;
  impact: string | null;
  count: number;
  wcag: string[];
  helpUrl: string | null;
}

/** Where the previous screen of issues ended, in (rule, impact, id) order. */
export interface IssueCursor {
  rule: string;
  impact: string | null;
  id: number;
}

const PAGE_INDEX = 'scan_issues_scan_id_page_index_index';

/**
 * The issues of a scan under a filter. With a page, SQLite is told to read that page's issues by the
 * (scan, page) index: its planner otherwise walks the whole scan in the rule index's order (which the
 * ORDER BY asks for) and reads every row to test the page. PostgreSQL's planner weighs this itself.
 */
function filtered(db: Knex, scanId: string, filter: IssueFilter): Knex.QueryBuilder {
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

/**
 * Issue counts per rule and impact, most issues first (counted from the (scan, rule, impact) index
 * alone), then each rule's criteria and help link from one of its issues.
 */
export async function ruleGroups(db: Knex, scanId: string, filter: IssueFilter): Promise<RuleGroupRecord[]> {
  const counts = await filtered(db, scanId, { ...filter, rule: undefined })
    .groupBy('rule', 'impact')
    .select<
      Array<{
        rule: string;
        impact: string | null;
        n: number | string;
      }>
    >('rule', 'impact', db.raw('count(*) as n'));
  const about = new Map<string, { wcag: string | null; help_url: string | null }>();
  for (const rule of new Set(counts.map((c) => c.rule))) {
    const row = await db('scan_issues')
      .where({ scan_id: scanId, rule })
      .first<{ wcag: string | null; help_url: string | null } | undefined>('wcag', 'help_url');
    about.set(rule, row ?? { wcag: null, help_url: null });
  }
  return counts
    .map((r) => {
      const a = about.get(r.rule);
      return {
        rule: r.rule,
        impact: r.impact,
        count: Number(r.n),
        wcag: a?.wcag ? a.wcag.split(',') : [],
        helpUrl: a?.help_url ?? null,
      };
    })
    .sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));
}

/**
 * Keyset page of the filtered issues in (rule, impact, id) order, each rule's issues together. Issues
 * without an impact come first within a rule on both databases, which the cursor's comparison follows.
 */
export async function issuesByRule(
  db: Knex,
  scanId: string,
  filter: IssueFilter,
  limit: number,
  after?: IssueCursor,
): Promise<ScanIssueRecord[]> {
  const pg = dialectOf(db) === 'postgres';
  const q = filtered(db, scanId, filter)
    .orderBy('rule', 'asc')
    .orderByRaw(pg ? 'impact asc nulls first' : 'impact asc')
    .orderBy('id', 'asc')
    .limit(limit);
  if (after) {
    const { rule, impact, id } = after;
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
  return (await q.select<IssueRow[]>()).map(issueFromRow);
}

const PAGE_COLUMNS = [
  'page_index',
  'url',
  'normalized_url',
  'title',
  'final_url',
  'http_status',
  'issue_count',
];

function pageFromRow(r: Record<string, unknown>): ScanPageRecord {
  return {
    index: Number(r.page_index),
    url: String(r.url),
    normalizedUrl: String(r.normalized_url),
    title: (r.title as string | null) ?? null,
    finalUrl: (r.final_url as string | null) ?? null,
    httpStatus: r.http_status === null ? null : Number(r.http_status),
    issueCount: Number(r.issue_count),
  };
}

/** The pages of a scan with the most issues, most first (a scan may have 10,000 pages: never all of them). */
export async function pagesWithMostIssues(
  db: Knex,
  scanId: string,
  limit: number,
): Promise<ScanPageRecord[]> {
  const rows = await db('scan_pages')
    .where({ scan_id: scanId })
    .orderBy([
      { column: 'issue_count', order: 'desc' },
      { column: 'page_index', order: 'asc' },
    ])
    .limit(limit)
    .select(...PAGE_COLUMNS);
  return rows.map(pageFromRow);
}

/** These pages of a scan (by index), e.g. those of the issues on one screen. */
export async function pagesByIndex(db: Knex, scanId: string, indexes: number[]): Promise<ScanPageRecord[]> {
  if (indexes.length === 0) return [];
  const rows = await db('scan_pages')
    .where({ scan_id: scanId })
    .whereIn('page_index', [...new Set(indexes)])
    .select(...PAGE_COLUMNS);
  return rows.map(pageFromRow);
}
