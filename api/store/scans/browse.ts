import type { Knex } from 'knex';
import type { ScanPageRecord } from './scans.js';
import { filteredIssues, type IssueFilter } from './issue-cursor.js';

/** The issues of one rule and impact in a scan: how many, which criteria, where to read about it. */
export interface RuleGroupRecord {
  rule: string;
  impact: string | null;
  count: number;
  wcag: string[];
  helpUrl: string | null;
}

/**
 * Issue counts per rule and impact, most issues first (counted from the (scan, rule, impact) index
 * alone), then each rule's criteria and help link from one of its issues.
 */
export async function ruleGroups(db: Knex, scanId: string, filter: IssueFilter): Promise<RuleGroupRecord[]> {
  const counts = await filteredIssues(db, scanId, { ...filter, rule: undefined })
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

const PAGE_COLUMNS = [
  'page_index',
  'url',
  'viewport',
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
    viewport: (r.viewport as string | null) ?? null,
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
