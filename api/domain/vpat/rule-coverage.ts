import { criteriaFromAxeTags } from '../../../core/scans/wcag-tags.js';

/**
 * Which WCAG success criteria each axe-core rule tests, from the rules' own tags (`axe.getRules()`). Pure:
 * the loader that asks the installed axe-core package lives outside domain/.
 */
export interface AxeRuleInfo {
  ruleId: string;
  tags: string[];
  helpUrl?: string;
}

export interface RuleCoverage {
  /** The axe-core version the rules came from (for remarks and the report's evaluation methods). */
  engineVersion: string | null;
  /** criterion id → ids of the rules that test it, sorted. */
  byCriterion: ReadonlyMap<string, readonly string[]>;
  /** rule id → criterion ids it tests. */
  byRule: ReadonlyMap<string, readonly string[]>;
  /** rule id → its help URL (Deque University). */
  helpUrls: ReadonlyMap<string, string>;
}

export function buildRuleCoverage(
  rules: readonly AxeRuleInfo[],
  engineVersion: string | null = null,
): RuleCoverage {
  const byCriterion = new Map<string, string[]>();
  const byRule = new Map<string, string[]>();
  const helpUrls = new Map<string, string>();
  for (const rule of rules) {
    const criteria = criteriaFromAxeTags(rule.tags);
    byRule.set(rule.ruleId, criteria);
    if (rule.helpUrl) helpUrls.set(rule.ruleId, rule.helpUrl);
    for (const c of criteria) {
      const list = byCriterion.get(c) ?? [];
      list.push(rule.ruleId);
      byCriterion.set(c, list);
    }
  }
  for (const list of byCriterion.values()) list.sort();
  return { engineVersion, byCriterion, byRule, helpUrls };
}

/** Rule ids that test a criterion (empty when no rule does: then it can never be `supports` from a scan). */
export function rulesTesting(coverage: RuleCoverage, criterion: string): readonly string[] {
  return coverage.byCriterion.get(criterion) ?? [];
}
