import { buildRuleCoverage, type RuleCoverage } from '../domain/rule-coverage.js';

let loaded: Promise<RuleCoverage> | undefined;

/**
 * Rule coverage of the installed axe-core package (`axe.getRules()`: every rule with its tags), read once
 * per process and only when the first report is generated (axe-core is a large module to load).
 */
export function axeRuleCoverage(): Promise<RuleCoverage> {
  loaded ??= import('axe-core').then((mod) => {
    const axe =
      (mod as unknown as { default?: typeof import('axe-core') }).default ??
      (mod as typeof import('axe-core'));
    return buildRuleCoverage(axe.getRules(), axe.version);
  });
  return loaded;
}
