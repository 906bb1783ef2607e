import type { Pa11yIssueInput } from './input.js';
import type { Impact } from '../../../core/impact.js';
import type { ImportedIssue } from '../../../core/scans/imported-issue.js';
import { criterionFromHtmlcsCode } from '../../../core/scans/wcag-criteria.js';

const HTMLCS_IMPACT: Record<string, Impact> = { error: 'serious', warning: 'moderate', notice: 'minor' };
const TYPE_CODES: Record<number, string> = { 1: 'error', 2: 'warning', 3: 'notice' };

function isAxeRunner(issue: Pa11yIssueInput): boolean {
  if (issue.runner) return issue.runner === 'axe';
  // Older pa11y output has no `runner`: HTML_CodeSniffer codes are dotted standard paths.
  return !/^(WCAG2A{1,3}|Section508)\./.test(issue.code);
}

/**
 * pa11y's issues for one page.
 * - axe runner: `code` is the axe rule, the impact is `runnerExtras.impact`, the help URL
 *   `runnerExtras.helpUrl`. pa11y flattens violations and incomplete results into one list whose
 *   `type` only mirrors the impact, so every axe-runner issue is kind `violation`.
 * - HTML_CodeSniffer: the code names the criterion (`…Guideline1_4.1_4_3.G18.Fail` → 1.4.3) and is
 *   the rule; error/warning/notice are impact serious/moderate/minor; errors are violations, while
 *   warnings and notices ask a human to check and are kind `incomplete`.
 */
export function issuesFromPa11y(
  issues: readonly Pa11yIssueInput[],
  criteriaOfAxeRule: (ruleId: string) => string[] = () => [],
): ImportedIssue[] {
  return issues.map((issue) => {
    const type =
      issue.type ?? (issue.typeCode !== undefined ? TYPE_CODES[issue.typeCode] : undefined) ?? 'error';
    const common = {
      rule: issue.code,
      message: issue.message ?? null,
      selector: issue.selector || null,
      html: issue.context ?? null,
      source: null,
    };
    if (isAxeRunner(issue)) {
      const extras = issue.runnerExtras ?? {};
      return {
        ...common,
        impact: extras.impact ?? HTMLCS_IMPACT[type] ?? null,
        kind: 'violation',
        wcag: criteriaOfAxeRule(issue.code),
        helpUrl: extras.helpUrl ?? null,
      };
    }
    const criterion = criterionFromHtmlcsCode(issue.code);
    return {
      ...common,
      impact: HTMLCS_IMPACT[type] ?? null,
      kind: type === 'error' ? 'violation' : 'incomplete',
      wcag: criterion ? [criterion] : [],
      helpUrl: null,
    };
  });
}
