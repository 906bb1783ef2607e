import { buildRuleCoverage, type RuleCoverage } from '../../domain/vpat/rule-coverage.js';

let loaded: Promise<RuleCoverage> | undefined;

/**
 * Rule coverage of the installed axe-core package (`axe.getRules()`: every rule with its tags), read once
 * per process and only when first needed: a report, or a pa11y page (axe-core is a large module to load).
 */
export function axeRuleCoverage(): Promise<RuleCoverage> {
  loaded ??= import('axe-core').then((mod) => {
    const axe = (mod as unknown as { default?: typeof import('axe-core') }).default ?? mod;
    return buildRuleCoverage(axe.getRules(), axe.version);
  });
  return loaded;
}

/**
 * WCAG criteria of an axe rule id, from the same rule list. pa11y's axe runner drops the tags, so its
 * issues get their criteria here.
 */
export async function axeRuleCriteria(): Promise<(ruleId: string) => string[]> {
  const coverage = await axeRuleCoverage();
  return (ruleId) => [...(coverage.byRule.get(ruleId) ?? [])];
}
