import type { RuleCoverage } from './rule-coverage.js';

/**
 * The scan's evidence as the report reads it (aggregated issue groups, pages and the rules that ran on each),
 * and the tallies every answer starts from: per criterion, per rule, and where each rule ran. Pure.
 */

/** Issues of one (rule, kind, wcag, page) group, as the aggregate query returns them. */
export interface EvidenceGroup {
  rule: string;
  /** 'violation' or 'incomplete' (axe's own words; any other kind counts as neither). */
  kind: string;
  /** Comma-separated criterion ids from the issue ("1.4.3,1.1.1"), or null/empty. */
  wcag: string | null;
  page: number;
  count: number;
  helpUrl: string | null;
  /** How many of `count` an active waiver covers (undefined when waivers are not known). */
  waived?: number;
}

export interface EvidencePage {
  index: number;
  url: string;
  /**
   * The page's address (its normalised URL by the current rule): one URL at several viewports, or `/` and
   * `/index.html`, are several pages of the scan but one address. Absent: the URL stands for it.
   */
  address?: string;
  /**
   * Rule ids that ran on this page; null when unknown (then a rule counts as run there only if it reported
   * a result there). Absent: the scan-wide `rulesRun` stands for every page.
   */
  rulesRun?: readonly string[] | null;
  /** Rule ids that ran on this page and found nothing to test; null or absent when unknown. */
  rulesInapplicable?: readonly string[] | null;
}

export interface ScanEvidence {
  pages: ReadonlyArray<EvidencePage>;
  /**
   * Rule ids the scan says ran, for pages that carry no list of their own; null when unknown (then a rule
   * counts as run only where it reported a result).
   */
  rulesRun: readonly string[] | null;
  groups: readonly EvidenceGroup[];
  /** True when `waived` counts are filled in. */
  waiversKnown?: boolean;
  /** True when the scan itself was flagged as possibly not showing the real pages (login-page trap, errors). */
  suspect?: boolean;
}

/** How many different addresses the scan's pages are: the pages a report says were tested. */
export function addressCount(pages: ReadonlyArray<Pick<EvidencePage, 'url' | 'address'>>): number {
  return new Set(pages.map((p) => p.address ?? p.url)).size;
}

/** Counts some of the scan's pages (by index) once per address, as a report counts pages. */
export type PageCounter = (pages: Iterable<number>) => number;

/** The address of each of the scan's pages by its index. */
export function addressesByIndex(
  pages: ReadonlyArray<Pick<EvidencePage, 'index' | 'url' | 'address'>>,
): Map<number, string> {
  return new Map(pages.map((p) => [p.index, p.address ?? p.url]));
}

export function pageCounter(addresses: ReadonlyMap<number, string>): PageCounter {
  return (pages) => {
    const seen = new Set<string>();
    // A page the list does not hold counts as a page of its own.
    for (const i of pages) seen.add(addresses.get(i) ?? `#${i}`);
    return seen.size;
  };
}

export interface Tally {
  issues: number;
  waived: number;
  pages: Set<number>;
  rules: Map<string, string | null>;
}

function newTally(): Tally {
  return { issues: 0, waived: 0, pages: new Set(), rules: new Map() };
}

export interface CriterionTallies {
  violations: Tally;
  incomplete: Tally;
}

/**
 * Groups the scan's issues by criterion. An issue names its criteria in `wcag` (parsed from axe's `wcagNNN`
 * tags at import); an issue without any falls back to the criteria its rule tests according to axe-core.
 */
export function tallyByCriterion(
  groups: readonly EvidenceGroup[],
  coverage: RuleCoverage,
  out = new Map<string, CriterionTallies>(),
): Map<string, CriterionTallies> {
  const parsed = new Map<string, string[]>();
  for (const g of groups) {
    const key = g.wcag ?? '';
    let criteria = parsed.get(key);
    if (!criteria) {
      criteria = key
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      parsed.set(key, criteria);
    }
    const list = criteria.length > 0 ? criteria : (coverage.byRule.get(g.rule) ?? []);
    for (const c of list) {
      let t = out.get(c);
      if (!t) {
        t = { violations: newTally(), incomplete: newTally() };
        out.set(c, t);
      }
      const tally = g.kind === 'incomplete' ? t.incomplete : t.violations;
      tally.issues += g.count;
      tally.waived += g.waived ?? 0;
      tally.pages.add(g.page);
      if (!tally.rules.has(g.rule) || (!tally.rules.get(g.rule) && g.helpUrl))
        tally.rules.set(g.rule, g.helpUrl);
    }
  }
  return out;
}

/** What each rule reported in the scan, and which criteria the scan attributed those results to. */
export interface RuleResults {
  violations: number;
  incomplete: number;
  criteria: Set<string>;
}

export function resultsByRule(
  groups: readonly EvidenceGroup[],
  coverage: RuleCoverage,
  out = new Map<string, RuleResults>(),
): Map<string, RuleResults> {
  const seen = new Set<string>();
  for (const g of groups) {
    let r = out.get(g.rule);
    if (!r) {
      r = { violations: 0, incomplete: 0, criteria: new Set() };
      out.set(g.rule, r);
    }
    if (g.kind === 'incomplete') r.incomplete += g.count;
    else r.violations += g.count;
    // The criteria of one (rule, wcag) pair are added once, not once per page.
    const seenKey = `${g.rule}\u0000${g.wcag ?? ''}`;
    if (seen.has(seenKey)) continue;
    seen.add(seenKey);
    const named = (g.wcag ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    for (const c of named.length > 0 ? named : (coverage.byRule.get(g.rule) ?? [])) r.criteria.add(c);
  }
  return out;
}

/** Where each rule ran: the pages whose list names it, and the pages where it reported a result. */
export interface RulesRunByPage {
  /** Rule id → indexes of the pages it ran on. */
  pagesByRule: Map<string, Set<number>>;
  /** True when every page says which rules ran on it. */
  known: boolean;
  /** How many pages said nothing about which rules ran. */
  unknownPages: number;
}

export function rulesRunByPage(
  evidence: Pick<ScanEvidence, 'pages' | 'rulesRun' | 'groups'>,
): RulesRunByPage {
  const byPage = rulesRunOnPages(evidence.pages, evidence.rulesRun);
  rulesReportedIn(evidence.groups, byPage.pagesByRule);
  byPage.known = rulesRunKnown(byPage, evidence.pages.length, evidence.rulesRun);
  return byPage;
}

/** Where each rule ran by the pages' own lists (pages may come a batch at a time into `into`). */
export function rulesRunOnPages(
  pages: ReadonlyArray<EvidencePage>,
  rulesRun: readonly string[] | null,
  into?: RulesRunByPage,
): RulesRunByPage {
  const out = into ?? { pagesByRule: new Map<string, Set<number>>(), known: true, unknownPages: 0 };
  for (const p of pages) {
    const list = p.rulesRun === undefined ? rulesRun : p.rulesRun;
    if (list === null) {
      out.unknownPages++;
      continue;
    }
    for (const r of list) addPage(out.pagesByRule, r, p.index);
  }
  return out;
}

/** True when every page says which rules ran on it (or, without pages, when the scan does). */
export function rulesRunKnown(byPage: RulesRunByPage, pageCount: number, rulesRun: readonly string[] | null) {
  return pageCount > 0 ? byPage.unknownPages === 0 : rulesRun !== null;
}

/** A rule that reported a result on a page ran there, whatever the page's list says. */
export function rulesReportedIn(
  groups: readonly EvidenceGroup[],
  pagesByRule: Map<string, Set<number>>,
): void {
  for (const g of groups) addPage(pagesByRule, g.rule, g.page);
}

function addPage(pagesByRule: Map<string, Set<number>>, rule: string, page: number): void {
  let set = pagesByRule.get(rule);
  if (!set) pagesByRule.set(rule, (set = new Set()));
  set.add(page);
}

/** Violations per failing rule (waived ones too), for comparing two reports. */
export function violationsByRule(
  groups: readonly EvidenceGroup[],
): Array<{ rule: string; issues: number; pages_affected: number }> {
  return violationsFrom(tallyViolations(groups));
}

/** Violations counted so far per rule (groups may come a batch at a time). */
export type ViolationTally = Map<string, { issues: number; pages: Set<number> }>;

export function tallyViolations(
  groups: readonly EvidenceGroup[],
  acc: ViolationTally = new Map(),
): ViolationTally {
  for (const g of groups) {
    if (g.kind === 'incomplete') continue;
    let entry = acc.get(g.rule);
    if (!entry) acc.set(g.rule, (entry = { issues: 0, pages: new Set() }));
    entry.issues += g.count;
    entry.pages.add(g.page);
  }
  return acc;
}

export function violationsFrom(
  acc: ViolationTally,
  count: PageCounter = (pages) => new Set(pages).size,
): Array<{ rule: string; issues: number; pages_affected: number }> {
  return [...acc.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([rule, e]) => ({ rule, issues: e.issues, pages_affected: count(e.pages) }));
}
