import type { ImpactKey } from '../../core/gate/settings.js';
import { IMPACTS } from '../../core/impact.js';
import { REPORT_STATUSES, type ReportItem, type ReportStatus } from './model.js';

/**
 * The report's issues as it lays them out: a section per status, a group per impact inside it, and the
 * rules and pages the filters offer. Rules and pages are named in the markup's classes and the stylesheet
 * by their number only (`r3`, `p1`), never by their text, which is the scanned page's to write.
 */

export interface ReportGroup {
  id: string;
  impact: ImpactKey;
  items: ReportItem[];
}

export interface StatusSection {
  id: string;
  status: ReportStatus;
  groups: ReportGroup[];
  count: number;
}

export interface ReportLayout {
  sections: StatusSection[];
  /** Rule ids and page paths, sorted; an item's class is `r` or `p` and its index here. */
  rules: string[];
  pages: string[];
  /** The impacts some item has, most severe first. */
  impacts: ImpactKey[];
  ruleOf(item: ReportItem): number;
  pageOf(item: ReportItem): number;
}

export const IMPACT_KEYS: readonly ImpactKey[] = [...IMPACTS, 'unknown'];

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

export function layoutOf(items: readonly ReportItem[]): ReportLayout {
  const rules = sorted(items.map((i) => i.rule));
  const pages = sorted(items.map((i) => i.pageKey));
  const ruleIndex = new Map(rules.map((r, n) => [r, n]));
  const pageIndex = new Map(pages.map((p, n) => [p, n]));
  const sections: StatusSection[] = [];
  for (const status of REPORT_STATUSES) {
    const mine = items.filter((i) => i.status === status);
    if (mine.length === 0) continue;
    const groups = IMPACT_KEYS.map((impact) => ({
      id: `g-${status}-${impact}`,
      impact,
      items: mine.filter((i) => (i.impact ?? 'unknown') === impact),
    })).filter((g) => g.items.length > 0);
    sections.push({ id: `s-${status}`, status, groups, count: mine.length });
  }
  return {
    sections,
    rules,
    pages,
    impacts: IMPACT_KEYS.filter((k) => items.some((i) => (i.impact ?? 'unknown') === k)),
    ruleOf: (item) => ruleIndex.get(item.rule) ?? 0,
    pageOf: (item) => pageIndex.get(item.pageKey) ?? 0,
  };
}
