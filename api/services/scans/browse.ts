import { domainErrors } from '../../domain/errors.js';
import type { ApiContext } from '../../context.js';
import {
  pagesByIndex,
  pagesWithMostIssues,
  ruleGroups,
  type RuleGroupRecord,
} from '../../store/scans/browse.js';
import { readIssues, type IssueCursor, type IssueFilter } from '../../store/scans/issue-cursor.js';
import {
  findScan,
  listScanPages,
  type ScanIssueRecord,
  type ScanPageRecord,
  type ScanRecord,
} from '../../store/scans/scans.js';
import { scanWaivers } from './scans.js';

export interface BrowsedIssue extends ScanIssueRecord {
  /** The active waiver that covers it now (the same live view as `GET /api/v1/scans/:id`). */
  waiverId: string | null;
}

export interface ScanBrowse {
  scan: ScanRecord;
  /** The filter as applied (a page number beyond the scan's pages is dropped). */
  filter: IssueFilter;
  /** The pages with the most issues (at most `topPages`), or every page of a small scan. */
  pages: ScanPageRecord[];
  /** The pages of the issues on this screen and of the page filter, by index. */
  pageOf: Map<number, ScanPageRecord>;
  /** Counts per rule and impact under the impact and page filters (all rules, so one can be picked). */
  groups: RuleGroupRecord[];
  /** Up to `limit + 1` issues in (rule, impact, id) order after the cursor; the extra one means "more". */
  issues: BrowsedIssue[];
}

/**
 * Counts per rule and impact of whole scans: a scan never changes once complete, so they are counted
 * once per process (the most recently read scans are kept).
 */
const groupCache = new Map<string, RuleGroupRecord[]>();
const GROUP_CACHE_SCANS = 100;

async function groupsOf(ctx: ApiContext, scanId: string, filter: IssueFilter): Promise<RuleGroupRecord[]> {
  if (filter.pageIndex !== undefined) return ruleGroups(ctx.db, scanId, filter);
  let all = groupCache.get(scanId);
  if (!all) {
    all = await ruleGroups(ctx.db, scanId, {});
    if (groupCache.size >= GROUP_CACHE_SCANS) groupCache.delete(groupCache.keys().next().value!);
    groupCache.set(scanId, all);
  }
  return filter.impact ? all.filter((g) => (g.impact ?? 'unknown') === filter.impact) : all;
}

/**
 * One screenful of a scan of any size: its busiest pages, issue counts per rule, and one keyset page
 * of issues, each marked with the waiver that covers it. DomainError not_found for another org's scan.
 */
export async function browseScan(
  ctx: ApiContext,
  org: string,
  id: string,
  asked: IssueFilter,
  limit: number,
  topPages: number,
  after?: IssueCursor,
): Promise<ScanBrowse> {
  const scan = await findScan(ctx.db, org, id);
  if (!scan) throw domainErrors.notFound('scan');
  const outside = asked.pageIndex !== undefined && (asked.pageIndex < 0 || asked.pageIndex >= scan.pageCount);
  const filter = outside ? { ...asked, pageIndex: undefined } : asked;
  const [pages, groups, issues] = await Promise.all([
    scan.pageCount <= topPages
      ? listScanPages(ctx.db, scan.id)
      : pagesWithMostIssues(ctx.db, scan.id, topPages),
    groupsOf(ctx, scan.id, filter),
    readIssues(ctx.db, scan.id, { order: 'rule', filter, limit, after }),
  ]);
  const wanted = [
    ...issues.map((i) => i.pageIndex),
    ...(filter.pageIndex !== undefined ? [filter.pageIndex] : []),
  ];
  const screenPages = await pagesByIndex(ctx.db, scan.id, wanted);
  const waiverOf = await scanWaivers(ctx, scan, screenPages);
  return {
    scan,
    filter,
    pages,
    pageOf: new Map(screenPages.map((p) => [p.index, p])),
    groups,
    issues: issues.map((i) => ({ ...i, waiverId: waiverOf(i) })),
  };
}
