import * as core from '@actions/core';
import { type GateIssue } from '../api/domain/gate/deploy-event.js';

/**
 * GitHub shows at most 10 error and 10 warning annotations per step and 50 per job; more only bloat the
 * log. The job summary and the deploy event list every new issue.
 */
export const MAX_ANNOTATIONS = 50;

/** Same levels as the check run: critical/serious are errors, the rest warnings. */
export function annotationLevel(issue: GateIssue): 'error' | 'warning' {
  return issue.impact === 'critical' || issue.impact === 'serious' ? 'error' : 'warning';
}

export function annotationText(issue: GateIssue): { title: string; message: string } {
  const where = [issue.page_url, issue.selector ? `element ${issue.selector}` : '']
    .filter(Boolean)
    .join(', ');
  const lines = [issue.message || issue.rule];
  if (where) lines.push(`On ${where}`);
  if (issue.wcag?.length) lines.push(`WCAG ${issue.wcag.join(', ')}`);
  if (issue.help_url) lines.push(issue.help_url);
  return {
    title: `a11y-gate: ${issue.rule}${issue.impact ? ` (${issue.impact})` : ''}`,
    message: lines.join('\n'),
  };
}

/** One annotation per new issue (up to MAX_ANNOTATIONS), on the source file and line when the issue knows them. */
export function annotateNewIssues(issues: GateIssue[], total: number): void {
  for (const issue of issues.slice(0, MAX_ANNOTATIONS)) {
    const { title, message } = annotationText(issue);
    const properties: core.AnnotationProperties = { title };
    if (issue.source?.path) {
      properties.file = issue.source.path;
      if (issue.source.line && issue.source.line > 0) properties.startLine = issue.source.line;
    }
    if (annotationLevel(issue) === 'error') core.error(message, properties);
    else core.warning(message, properties);
  }
  const shown = Math.min(issues.length, MAX_ANNOTATIONS);
  if (total > shown) {
    core.info(
      `${total - shown} more new issues are not annotated; the job summary and the deploy event list them.`,
    );
  }
}
