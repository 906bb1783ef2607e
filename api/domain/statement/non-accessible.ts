import { publicPath } from '../../../core/url-normalisation.js';
import { compareCriterionIds } from '../catalog/wcag.js';
import type { CriterionTallies } from '../vpat/evidence-tally.js';
import type { VpatReport } from '../vpat/report.js';
import type { RuleCoverage } from '../vpat/rule-coverage.js';
import type { WaiverReasonCategory } from '../waivers/reason-category.js';
import { countedRows } from './compliance.js';
import type { FailingCriterion, NonAccessibleContent, StatementWaiver } from './statement.js';

/**
 * The statement's non-accessible content: the criteria the report answers as failing, each with the pages
 * and rules where the scan saw it fail, and the site's active waivers under their reason categories. Pure;
 * the service reads the scan's issue groups and the waivers.
 */

/** Pages listed per failing criterion; `pages_affected` says how many there are in all. */
export const PAGES_LISTED = 20;

/** Where the scan saw one criterion fail. */
export interface CriterionViolations {
  issues: number;
  waived: number;
  /** Public paths, in the scan's page order, at most PAGES_LISTED. */
  pages: string[];
  pagesAffected: number;
  rules: string[];
}

/**
 * The scan's violations per criterion, from the tallies its issue groups fold into (the same tally a
 * report's rows are derived from, so an issue counts for the same criteria here as there). `pageAddress`
 * maps a page's index to its address: a URL failing at two viewports is one page listed and counted.
 */
export function violationsByCriterion(
  tallies: ReadonlyMap<string, CriterionTallies>,
  pageAddress: ReadonlyMap<number, string>,
): Map<string, CriterionViolations> {
  const out = new Map<string, CriterionViolations>();
  for (const [criterion, t] of tallies) {
    const v = t.violations;
    if (v.issues === 0) continue;
    const indexes = [...v.pages].sort((a, b) => a - b);
    const pages = [...new Set(indexes.map((p) => publicPath(pageAddress.get(p) ?? '')))];
    out.set(criterion, {
      issues: v.issues,
      waived: v.waived,
      pages: pages.slice(0, PAGES_LISTED),
      pagesAffected: pages.length,
      rules: [...v.rules.keys()].sort(),
    });
  }
  return out;
}

/** A waiver as the statement reads it (the store's record, in the domain's words). */
export interface WaiverInput {
  id: string;
  rule: string;
  selector: string | null;
  urlPattern: string | null;
  fingerprint: string | null;
  reason: string | null;
  reasonCategory: WaiverReasonCategory;
  expiresAt: string | null;
  createdAt: string;
}

function failingCriteria(
  report: VpatReport,
  violations: ReadonlyMap<string, CriterionViolations>,
): FailingCriterion[] {
  return countedRows(report).flatMap((row) => {
    if (row.conformance !== 'partially-supports' && row.conformance !== 'does-not-support') return [];
    const v = violations.get(row.id);
    return [
      {
        id: row.id,
        title: row.title,
        level: row.level,
        conformance: row.conformance,
        source: row.source,
        remarks: row.remarks,
        rules: v?.rules ?? [],
        pages: v?.pages ?? [],
        pages_affected: v?.pagesAffected ?? 0,
        issues: v?.issues ?? 0,
        waived: v?.waived ?? 0,
      },
    ];
  });
}

function statementWaiver(w: WaiverInput, coverage: RuleCoverage): StatementWaiver {
  return {
    id: w.id,
    rule: w.rule,
    selector: w.selector,
    url_pattern: w.urlPattern,
    fingerprint: w.fingerprint,
    reason: w.reason ?? '',
    category: w.reasonCategory,
    expires_at: w.expiresAt,
    criteria: [...(coverage.byRule.get(w.rule) ?? [])].sort(compareCriterionIds),
  };
}

export function nonAccessibleContent(
  report: VpatReport,
  violations: ReadonlyMap<string, CriterionViolations>,
  waivers: readonly WaiverInput[],
  coverage: RuleCoverage,
): NonAccessibleContent {
  // Oldest first within a category: the order they were accepted in.
  const listed = [...waivers]
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .map((w) => statementWaiver(w, coverage));
  const of = (category: WaiverReasonCategory) => listed.filter((w) => w.category === category);
  return {
    non_compliance: { criteria: failingCriteria(report, violations), waivers: of('non-compliance') },
    disproportionate_burden: of('disproportionate-burden'),
    outside_scope: of('outside-scope'),
  };
}

/** True when the statement lists anything as not accessible. */
export function hasNonAccessibleContent(c: NonAccessibleContent): boolean {
  return (
    c.non_compliance.criteria.length +
      c.non_compliance.waivers.length +
      c.disproportionate_burden.length +
      c.outside_scope.length >
    0
  );
}
