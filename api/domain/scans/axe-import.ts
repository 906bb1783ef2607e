import type { AxeResultsInput } from './input.js';
import { issueSource, type ImportedIssue } from '../../../core/scans/imported-issue.js';
import { type IssueKind } from '../../../core/impact.js';
import { criteriaFromAxeTags } from '../../../core/scans/wcag-tags.js';
import { axeTargetToSelector } from '../../../core/scans/axe-target.js';

/**
 * One issue per node of every violation (kind `violation`) and incomplete result (kind
 * `incomplete`). The node's own impact wins over the rule's (axe rates nodes separately); the failure
 * summary is the message, falling back to the rule's help text.
 */
export function issuesFromAxe(result: AxeResultsInput): ImportedIssue[] {
  const out: ImportedIssue[] = [];
  const add = (rules: AxeResultsInput['violations'], kind: IssueKind) => {
    for (const rule of rules) {
      const wcag = criteriaFromAxeTags(rule.tags);
      for (const node of rule.nodes) {
        const selector = axeTargetToSelector(node.target);
        out.push({
          rule: rule.id,
          impact: node.impact ?? rule.impact ?? null,
          kind,
          message: node.failureSummary?.trim() || rule.help || rule.description || null,
          selector: selector || null,
          html: node.html ?? null,
          wcag,
          helpUrl: rule.helpUrl ?? null,
          source: issueSource(node.source),
        });
      }
    }
  };
  add(result.violations, 'violation');
  add(result.incomplete, 'incomplete');
  return out;
}

/** Every rule that ran on the page: passes, violations, incomplete and inapplicable. */
export function rulesRunByAxe(result: AxeResultsInput): string[] {
  const ids = new Set<string>();
  for (const list of [result.passes, result.violations, result.incomplete, result.inapplicable]) {
    for (const r of list) ids.add(r.id);
  }
  return [...ids];
}
