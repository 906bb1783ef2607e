import type { Knex } from 'knex';
import { issueFromRow, type ScanIssueRecord } from './scans.js';

/** Narrows a scan's issues for reading: by impact (`unknown` = none given), rule and page. */
export interface IssueFilter {
  impact?: 'critical' | 'serious' | 'moderate' | 'minor' | 'unknown';
  rule?: string;
  pageIndex?: number;
}

/** The issues of one rule (and impact) in a scan: how many, which criteria, where to read about it. */
export interface RuleGroupRecord {
  rule: string;
  impact: string | null;
  count: number;
  wcag: string[];
  helpUrl: string | null;
}

function filtered(db: Knex, scanId: string, filter: IssueFilter): Knex.QueryBuilder {
  const q = db('scan_issues').where('scan_id', scanId);
  if (filter.impact === 'unknown') q.whereNull('impact');
  else if (filter.impact) q.andWhere('impact', filter.impact);
  if (filter.rule !== undefined) q.andWhere('rule', filter.rule);
  if (filter.pageIndex !== undefined) q.andWhere('page_index', filter.pageIndex);
  return q;
}

/** Issue counts per rule and impact, most issues first. */
export async function ruleGroups(db: Knex, scanId: string, filter: IssueFilter): Promise<RuleGroupRecord[]> {
  const rows = (await filtered(db, scanId, { ...filter, rule: undefined })
    .groupBy('rule', 'impact')
    .select(
      'rule',
      'impact',
      db.raw('count(*) as n'),
      db.raw('max(wcag) as wcag'),
      db.raw('max(help_url) as help_url'),
    )) as Array<{
    rule: string;
    impact: string | null;
    n: number | string;
    wcag: string | null;
    help_url: string | null;
  }>;
  return rows
    .map((r) => ({
      rule: r.rule,
      impact: r.impact,
      count: Number(r.n),
      wcag: r.wcag ? r.wcag.split(',') : [],
      helpUrl: r.help_url,
    }))
    .sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));
}

/** Keyset page of the filtered issues ordered by (rule, id): each rule's issues together. */
export async function issuesByRule(
  db: Knex,
  scanId: string,
  filter: IssueFilter,
  limit: number,
  after?: { rule: string; id: number },
): Promise<ScanIssueRecord[]> {
  const q = filtered(db, scanId, filter)
    .orderBy([
      { column: 'rule', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .limit(limit);
  if (after) {
    q.andWhere((w) =>
      w
        .where('rule', '>', after.rule)
        .orWhere((o) => o.where('rule', after.rule).andWhere('id', '>', after.id)),
    );
  }
  return (await q).map(issueFromRow);
}
