import { ACT_RULES } from './act-rules.data.js';
import type { RuleCoverage } from '../vpat/rule-coverage.js';
import type { EvidenceGroup } from '../vpat/evidence-tally.js';

/**
 * Criteria that W3C's ACT rules relate to an axe-core rule beyond the ones axe-core tags it with. `label`
 * is tagged 4.1.2 only, but ACT rule e086e5, which axe-core's `label` implements, also bears on 1.3.1 and
 * 2.5.3: an unlabelled input is a reason to doubt those criteria too. Pure; the data is generated.
 */

interface ActLink {
  criterion: string;
  role: 'primary' | 'secondary';
  actRule: string;
  actName: string;
  proposed: boolean;
}

/** A failure of an axe-core rule that W3C relates to a criterion the scan did not attribute it to. */
export interface RelatedFailure {
  rule: string;
  act_rule: string;
  act_name: string;
  /** The criterion's role in the ACT rule. */
  role: 'primary' | 'secondary';
  issues: number;
  pages_affected: number;
}

const LINKS_BY_AXE_RULE: ReadonlyMap<string, readonly ActLink[]> = (() => {
  const out = new Map<string, ActLink[]>();
  // Approved rules first, so when two ACT rules relate the same criterion the approved one is named.
  const ordered = [...ACT_RULES].sort((a, b) => Number(a.proposed) - Number(b.proposed));
  for (const act of ordered) {
    for (const axeRule of act.axeRules) {
      const list = out.get(axeRule) ?? [];
      for (const c of act.criteria) {
        if (list.some((l) => l.criterion === c.criterion)) continue;
        list.push({
          criterion: c.criterion,
          role: c.role,
          actRule: act.id,
          actName: act.name,
          proposed: act.proposed,
        });
      }
      out.set(axeRule, list);
    }
  }
  return out;
})();

/** Every criterion W3C's ACT rules tie an axe-core rule to (its own criteria included). */
export function actCriteriaOf(axeRule: string): string[] {
  return (LINKS_BY_AXE_RULE.get(axeRule) ?? []).map((l) => l.criterion);
}

/** Related failures counted so far: per (criterion, rule), its issues and pages. */
export type RelatedTally = Map<string, { link: ActLink; rule: string; issues: number; pages: Set<number> }>;

/**
 * For each criterion, the violations of rules W3C relates to it that the scan counted for other criteria
 * only. A criterion the scan itself attributes the failure to is not "related": it already fails.
 */
export function relatedFailures(
  groups: readonly EvidenceGroup[],
  coverage: RuleCoverage,
): Map<string, RelatedFailure[]> {
  return relatedFrom(tallyRelated(groups, coverage));
}

/** Adds these groups to the tally (groups may come a batch at a time). */
export function tallyRelated(
  groups: readonly EvidenceGroup[],
  coverage: RuleCoverage,
  acc: RelatedTally = new Map(),
): RelatedTally {
  // Groups repeat a few (rule, criteria) pairs over every page: each pair's related links are found once.
  const relatedOf = new Map<string, ActLink[]>();
  const linksOf = (g: EvidenceGroup): ActLink[] => {
    const pairKey = `${g.rule}\u0000${g.wcag ?? ''}`;
    let related = relatedOf.get(pairKey);
    if (!related) {
      const named = (g.wcag ?? '')
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      const own = new Set(named.length > 0 ? named : (coverage.byRule.get(g.rule) ?? []));
      related = (LINKS_BY_AXE_RULE.get(g.rule) ?? []).filter((l) => !own.has(l.criterion));
      relatedOf.set(pairKey, related);
    }
    return related;
  };
  for (const g of groups) {
    if (g.kind === 'incomplete') continue;
    for (const link of linksOf(g)) {
      const key = `${link.criterion}\u0000${g.rule}`;
      let entry = acc.get(key);
      if (!entry) acc.set(key, (entry = { link, rule: g.rule, issues: 0, pages: new Set() }));
      entry.issues += g.count;
      entry.pages.add(g.page);
    }
  }
  return acc;
}

/** `count`: how many pages a set of the scan's pages is (a report counts one per address). */
export function relatedFrom(
  acc: RelatedTally,
  count: (pages: ReadonlySet<number>) => number = (pages) => pages.size,
): Map<string, RelatedFailure[]> {
  const out = new Map<string, RelatedFailure[]>();
  for (const { link, rule, issues, pages } of acc.values()) {
    const list = out.get(link.criterion) ?? [];
    list.push({
      rule,
      act_rule: link.actRule,
      act_name: link.actName,
      role: link.role,
      issues,
      pages_affected: count(pages),
    });
    out.set(link.criterion, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.rule.localeCompare(b.rule));
  return out;
}
