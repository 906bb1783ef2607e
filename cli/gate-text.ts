import { type DeployEvent } from '../core/gate/deploy-event.js';
import {
  fixHeading,
  fixSteps,
  htmlSnippet,
  oneLineMessage,
  reproduceCommand,
  sourceText,
} from '../core/gate/finding-text.js';
import { oneLine } from '../core/text/github-markdown.js';

/** At most this many new issues are printed; the console page lists the rest. */
const PRINTED = 20;

/**
 * The gate's answer on stdout: the decision and its reasons, and on a failed gate the new issues themselves
 * (not only their count), each in plain words, with a command that scans the failing pages again.
 */
export function gateText(g: DeployEvent, detailsUrl: string | null): string {
  const recorded = g.reasons.some((r) => r.code === 'baseline_recorded');
  const verdict = `Gate ${g.passed ? 'passed' : 'FAILED'}: ${g.counts.new} new ${g.counts.new === 1 ? 'issue' : 'issues'}.`;
  // The base branch's first scan: its issues are counted as new but are the debt the site starts from.
  const lines = [recorded ? 'Gate passed: baseline recorded.' : verdict];
  for (const r of g.reasons) lines.push(`  - ${oneLine(r.message)} (${oneLine(r.code)})`);
  if (!g.passed && g.new_issues.length > 0) {
    lines.push('', 'New issues:');
    g.new_issues.slice(0, PRINTED).forEach((issue, i) => {
      // Scan data may carry line breaks and terminal escape sequences: each piece stays on its line, inert.
      lines.push(`${i + 1}. ${oneLine(oneLineMessage(issue))} [${issue.impact ?? 'unknown impact'}]`);
      lines.push(
        `   at ${oneLine(sourceText(issue) ?? '(not located)')} on ${oneLine(issue.page_url ?? '')}`,
      );
      const html = htmlSnippet(issue.html);
      if (html) lines.push(`   element: ${oneLine(html)}`);
      const steps = fixSteps(issue.message);
      if (steps.length > 1)
        lines.push(`   ${fixHeading(issue.message)}:`, ...steps.map((s) => `     - ${oneLine(s)}`));
    });
    const more = (g.new_issues_total ?? g.new_issues.length) - Math.min(PRINTED, g.new_issues.length);
    if (more > 0) lines.push(`… and ${more} more.`);
    const command = reproduceCommand(g.new_issues);
    if (command) lines.push('', `Reproduce locally: ${oneLine(command)}`);
  }
  if (detailsUrl) lines.push('', `Details: ${detailsUrl}`);
  return `${lines.join('\n')}\n`;
}
