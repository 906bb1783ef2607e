import { domainErrors } from '../domain/errors.js';
import type { ApiContext } from '../context.js';
import { issuesByRule, ruleGroups, type IssueFilter, type RuleGroupRecord } from '../store/scan-browse.js';
import {
  findScan,
  listScanPages,
  type ScanIssueRecord,
  type ScanPageRecord,
  type ScanRecord,
} from '../store/scans.js';
import { scanWaivers } from './scans.js';

export type { IssueFilter } from '../store/scan-browse.js';

export interface BrowsedIssue extends ScanIssueRecord {
  /** The active waiver that covers it now (the same live view as `GET /api/v1/scans/:id`). */
  waiverId: string | null;
}

export interface ScanBrowse {
  scan: ScanRecord;
  pages: ScanPageRecord[];
  /** Counts per rule and impact under the impact and page filters (all rules, so one can be picked). */
  groups: RuleGroupRecord[];
  /** Up to `limit + 1` issues in (rule, id) order after the cursor; the extra one means "more". */
  issues: BrowsedIssue[];
}

/**
 * One screenful of a scan of any size: its pages, issue counts per rule, and one keyset page of issues,
 * each marked with the waiver that covers it. DomainError not_found for another org's scan.
 */
export async function browseScan(
  ctx: ApiContext,
  org: string,
  id: string,
  filter: IssueFilter,
  limit: number,
  after?: { rule: string; id: number },
): Promise<ScanBrowse> {
  const scan = await findScan(ctx.db, org, id);
  if (!scan) throw domainErrors.notFound('scan');
  const pages = await listScanPages(ctx.db, scan.id);
  const [groups, issues, waiverOf] = await Promise.all([
    ruleGroups(ctx.db, scan.id, filter),
    issuesByRule(ctx.db, scan.id, filter, limit, after),
    scanWaivers(ctx, scan, pages),
  ]);
  return { scan, pages, groups, issues: issues.map((i) => ({ ...i, waiverId: waiverOf(i) })) };
}
