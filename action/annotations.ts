import * as core from '@actions/core';
import { type GateIssue } from '../core/gate/deploy-event.js';
import { atViewport } from '../core/text/wording.js';
import { fixHeading, fixSteps, htmlSnippet, oneLineMessage, sourceText } from '../core/gate/finding-text.js';

/**
 * Annotations on the diff: one `::error file=…,line=…,col=…` per located new issue. GitHub shows at most 10
 * error and 10 warning annotations per step (and 50 per job), so more than that would only bloat the log;
 * the job summary says how many were left out and lists every new issue.
 */
export const ANNOTATIONS_PER_LEVEL = 10;

/** Same levels as the check run: critical/serious are errors, the rest warnings. */
export function annotationLevel(issue: GateIssue): 'error' | 'warning' {
  return issue.impact === 'critical' || issue.impact === 'serious' ? 'error' : 'warning';
}

export function annotationText(issue: GateIssue): { title: string; message: string } {
  const html = htmlSnippet(issue.html, 200);
  const steps = fixSteps(issue.message);
  const lines = [oneLineMessage(issue)];
  if (html) lines.push(`Element: ${html}`);
  if (steps.length > 1) lines.push(`${fixHeading(issue.message)}:`, ...steps.map((s) => `- ${s}`));
  if (issue.page_url) lines.push(`Page: ${atViewport(issue.page_url, issue.viewport)}`);
  return {
    title: `a11y-gate: ${issue.rule}${issue.impact ? ` (${issue.impact})` : ''}`,
    message: lines.join('\n'),
  };
}

export interface AnnotationTally {
  located: number;
  annotated: number;
}

/** Annotates the located new issues at their line, ten per level; returns how many were located and shown. */
export function annotateNewIssues(issues: GateIssue[]): AnnotationTally {
  const located = issues.filter((i) => sourceText(i) !== null);
  const shown = { error: 0, warning: 0 };
  for (const issue of located) {
    const level = annotationLevel(issue);
    if (shown[level] >= ANNOTATIONS_PER_LEVEL) continue;
    shown[level]++;
    const { title, message } = annotationText(issue);
    const source = issue.source!;
    const properties: core.AnnotationProperties = { title, file: source.path };
    if (source.line && source.line > 0) {
      properties.startLine = source.line;
      if (source.column) properties.startColumn = source.column;
    }
    if (level === 'error') core.error(message, properties);
    else core.warning(message, properties);
  }
  const annotated = shown.error + shown.warning;
  if (located.length > annotated) {
    core.info(
      `${located.length - annotated} more located new issues are not annotated (GitHub shows ${ANNOTATIONS_PER_LEVEL} ` +
        'errors and warnings per step); the job summary lists every new issue.',
    );
  }
  return { located: located.length, annotated };
}
