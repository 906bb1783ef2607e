import { type DeployEvent, type GateIssue } from '../core/gate/deploy-event.js';
import type { ServedFolderRef } from '../core/gate/served-folder.js';
import { noBaselineText } from '../core/gate/baseline.js';
import type { PageCoverage } from '../core/gate/coverage.js';
import { atViewport, plural } from '../core/text/wording.js';
import type { BaselineEntry } from '../scanner/baseline-file.js';
import type { LocalVerdict } from '../scanner/local-gate.js';
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
export function gateText(
  g: DeployEvent,
  detailsUrl: string | null,
  served: ServedFolderRef | null = null,
): string {
  const recorded = g.reasons.some((r) => r.code === 'baseline_recorded');
  const verdict = `Gate ${g.passed ? 'passed' : 'FAILED'}: ${g.counts.new} new ${g.counts.new === 1 ? 'issue' : 'issues'}.`;
  // The base branch's first scan: its issues are counted as new but are the debt the site starts from.
  const lines = [recorded ? 'Gate passed: baseline recorded.' : verdict];
  // Nothing to compare with: the gate's reason says why and what to do (core/gate/baseline.ts).
  if (!recorded && g.baseline && !g.baseline.scan_id) lines.push(oneLine(g.baseline.reason));
  if (g.coverage) lines.push(...coverageText(g.coverage));
  for (const r of g.reasons) lines.push(`  - ${oneLine(r.message)} (${oneLine(r.code)})`);
  if (!g.passed && g.new_issues.length > 0) {
    lines.push('', 'New issues:');
    g.new_issues
      .slice(0, PRINTED)
      .forEach((issue, i) =>
        lines.push(...issueLines(i + 1, { ...issue, at: atViewport(issue.page_url ?? '', issue.viewport) })),
      );
    const more = (g.new_issues_total ?? g.new_issues.length) - Math.min(PRINTED, g.new_issues.length);
    if (more > 0) lines.push(`… and ${more} more.`);
    lines.push(...reproduceLines(g.new_issues, served));
  }
  if (detailsUrl) lines.push('', `Details: ${detailsUrl}`);
  return `${lines.join('\n')}\n`;
}

/** The command that scans the pages with new issues again, when they have pages. */
function reproduceLines(
  issues: Array<Pick<GateIssue, 'page_url' | 'viewport'>>,
  served: ServedFolderRef | null,
): string[] {
  const command = reproduceCommand(issues, served);
  return command ? ['', `Reproduce locally: ${oneLine(command)}`] : [];
}

/** How many of a partial scan's pages are printed. */
const PAGES_PRINTED = 10;

/** A partial scan's pages compared: the sentence and the first pages (a page's URL is the scan's text). */
function coverageText(c: PageCoverage): string[] {
  const more = c.pages_compared - Math.min(PAGES_PRINTED, c.pages.length);
  return [
    oneLine(c.message),
    ...c.pages.slice(0, PAGES_PRINTED).map((url) => `  - ${oneLine(url)}`),
    ...(more > 0 ? [`  … and ${more} more.`] : []),
  ];
}

/** `rule selector on /page (path:line)`: a baseline entry on one line. */
function entryLine(e: BaselineEntry): string {
  const at = e.source ? ` (${e.source})` : '';
  const page = atViewport(e.page, e.viewport);
  // The file's text came from scanned pages: one line each, inert.
  return oneLine(`${e.rule} ${e.selector ?? '(the page)'} on ${page}${at}${e.reason ? `: ${e.reason}` : ''}`);
}

/**
 * One new issue: what is wrong, where (its `path:line` and page), the element and how to fix it. Scan data
 * may carry line breaks and terminal escape sequences: each piece stays on its line, inert.
 */
function issueLines(
  n: number,
  issue: Pick<GateIssue, 'rule' | 'message' | 'source' | 'html'> & { impact: string | null; at: string },
): string[] {
  const lines = [`${n}. ${oneLine(oneLineMessage(issue))} [${issue.impact ?? 'unknown impact'}]`];
  lines.push(`   at ${oneLine(sourceText(issue) ?? '(not located)')} on ${oneLine(issue.at)}`);
  const html = htmlSnippet(issue.html);
  if (html) lines.push(`   element: ${oneLine(html)}`);
  const steps = fixSteps(issue.message);
  if (steps.length > 1)
    lines.push(`   ${fixHeading(issue.message)}:`, ...steps.map((s) => `     - ${oneLine(s)}`));
  return lines;
}

/**
 * The gate without a service, on stdout: the decision against the baseline file, its reasons, the new
 * issues at their `path:line`, and what the file holds that is gone (fixed) or past its date.
 */
export function localGateText(
  v: LocalVerdict,
  baselineFile: string,
  served: ServedFolderRef | null = null,
): string {
  const c = v.evaluation.counts;
  const verdict = `Gate ${v.evaluation.passed ? 'passed' : 'FAILED'}: ${plural(c.new, 'new issue')}`;
  const lines = [
    v.baseline
      ? `${verdict} (against ${baselineFile}: ${c.existing} existing, ${c.fixed} fixed, ${c.waived} ignored).`
      : `${verdict} (${c.waived} ignored).`,
  ];
  if (!v.baseline)
    lines.push(
      noBaselineText('main'),
      `Record the baseline file (${baselineFile}) with "a11y-gate baseline" (the same pages and options) and commit it.`,
    );
  if (v.coverage) lines.push(...coverageText(v.coverage));
  for (const r of v.evaluation.reasons) lines.push(`  - ${r.message} (${r.code})`);
  for (const e of v.lapsed)
    lines.push(`  - Baseline entry past its date (until ${e.until}), counted as new: ${entryLine(e)}`);
  for (const i of v.lapsedIgnores)
    lines.push(
      `  - Ignore past its date (until ${i.until}), no longer applied: ` +
        `${[i.rule, i.selector, i.url].filter(Boolean).join(' ')}: ${i.reason}`,
    );
  if (v.newFindings.length > 0) {
    lines.push('', 'New issues:');
    v.newFindings
      .slice(0, PRINTED)
      .forEach((f, i) => lines.push(...issueLines(i + 1, { ...f, at: atViewport(f.pageUrl, f.viewport) })));
    if (v.newFindings.length > PRINTED) lines.push(`… and ${v.newFindings.length - PRINTED} more.`);
    const issues = v.newFindings.map((f) => ({ page_url: f.pageUrl, viewport: f.viewport }));
    lines.push(...reproduceLines(issues, served));
  }
  if (v.fixed.length > 0) {
    lines.push('', `Fixed (in ${baselineFile}, no longer found; --prune drops them):`);
    for (const e of v.fixed) lines.push(`  - ${entryLine(e)}`);
  }
  return `${lines.join('\n')}\n`;
}
