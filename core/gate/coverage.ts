import { plural } from '../text/wording.js';

/**
 * What a scan says it covers: `full` (the default: the pages that make the site) or `partial` (only the
 * pages it lists, such as the ones a pull request touched). A partial scan is compared on its own pages
 * only, and is never a baseline (docs/gate.md, "Partial scans").
 */
export const SCAN_SCOPES = ['full', 'partial'] as const;
export type ScanScope = (typeof SCAN_SCOPES)[number];

/** The pages a deploy event compared, when its head scan is partial (a full scan compares every page). */
export interface PageCoverage {
  scope: 'partial';
  /** The head scan's pages: the pages compared. */
  pages_compared: number;
  /** Those and the baseline's pages the head scan does not cover (`pages_compared` without a baseline). */
  pages_total: number;
  /** The compared pages' URLs, in scan order, at most PAGES_LISTED (`pages_compared` is exact). */
  pages: string[];
  /** The sentence that says so. */
  message: string;
}

/** How many compared pages a deploy event lists. */
export const PAGES_LISTED = 100;

/** The pages of a partial head scan, as the evaluation reads them: its page keys (`pageKey`). */
export interface CoveredPages {
  keys: ReadonlySet<string>;
  /** The page key of baseline issue `j`. */
  pageOf(j: number): string;
}

/**
 * Whether baseline issue `j` is compared: every one against a full scan; against a partial scan, those on
 * the pages it covers. The others are neither fixed nor existing, as nothing was looked at there.
 */
export function comparesBaselineIssue(covered: CoveredPages | undefined, j: number): boolean {
  return covered === undefined || covered.keys.has(covered.pageOf(j));
}

/** A page of the head scan: its URL as submitted and its key. */
export interface CoveredPage {
  url: string;
  key: string;
}

/**
 * What a partial head scan compared: its pages (each key once, in scan order) out of those and the
 * baseline's others. `baselineKeys` is null without a baseline.
 */
export function pageCoverage(
  head: readonly CoveredPage[],
  baselineKeys: Iterable<string> | null,
): { coverage: PageCoverage; keys: Set<string> } {
  const keys = new Set<string>();
  const pages: string[] = [];
  for (const p of head) {
    if (keys.has(p.key)) continue;
    keys.add(p.key);
    if (pages.length < PAGES_LISTED) pages.push(p.url);
  }
  let total = keys.size;
  if (baselineKeys) {
    const others = new Set<string>();
    for (const k of baselineKeys) if (!keys.has(k)) others.add(k);
    total += others.size;
  }
  const compared = keys.size;
  return {
    keys,
    coverage: {
      scope: 'partial',
      pages_compared: compared,
      pages_total: total,
      pages,
      message: coverageMessage(compared, baselineKeys ? total : null),
    },
  };
}

function coverageMessage(compared: number, total: number | null): string {
  if (total === null)
    return `This scan covers only the ${plural(compared, 'page')} listed, and there is no baseline to compare ${compared === 1 ? 'it' : 'them'} with.`;
  const others = total - compared;
  return (
    `Compared ${compared} of ${plural(total, 'page')}: this scan covers only the pages listed` +
    (others > 0
      ? `; the baseline's issues on the other ${plural(others, 'page')} count neither as fixed nor as existing.`
      : '.')
  );
}
