/**
 * The new issues of a deploy-gate result in markdown (part of the gate report): per issue a one-line
 * message, where it is (the file and line linked at the commit, and the page), the element's HTML and how
 * to fix it as a short list; then a command that scans the failing pages locally. Cut with a note saying
 * where the rest is when it would not fit.
 */
import { byteLength, GITHUB_TEXT_LIMIT, rowsWithin, totalNew } from './report.js';
import { truncate } from '../text/truncation.js';
import {
  linkDestination,
  markdownCode,
  markdownText,
  oneLine,
  ruleHelpDestination,
} from '../text/github-markdown.js';
import { type GateIssue, type GateResult } from './deploy-event.js';
import {
  fixHeading,
  fixSteps,
  hasFixList,
  htmlSnippet,
  oneLineMessage,
  reproduceCommand,
  sourceText,
  sourceUrl,
} from './finding-text.js';

/** The new issues, cut (with a note) to fit GitHub's limit. */
export function newIssuesTable(result: GateResult, limit = GITHUB_TEXT_LIMIT): string {
  const total = totalNew(result);
  if (total === 0) return 'No new accessibility issues.\n';
  const command = reproduceCommand(result.new_issues, result.served ?? null);
  const tail = command
    ? `\n\nTo reproduce locally (the CLI on the pages with new issues):\n\n\`\`\`sh\n${oneLine(command)}\n\`\`\`\n`
    : '';
  const head = `#### New issues (${total})\n`;
  const rows = result.new_issues.map((issue, i) => issueBlock(issue, i + 1, result));
  // The deploy event itself lists only its first `listed` new issues (capped by the gate): rows cut here
  // for size are there, the ones beyond its list are only in the scan, and the note must say which.
  const listed = result.new_issues.length;
  const scan = result.scan_id ? `the scan \`${result.scan_id}\`` : 'the scan';
  const note = (shown: number) => {
    const left = total - shown;
    if (left <= 0) return '\n';
    const more = `${left} more new ${left === 1 ? 'issue is' : 'issues are'} not listed here`;
    const cut = listed - shown;
    if (listed >= total) return `\n\n_${more}; the deploy event lists ${left === 1 ? 'it' : 'them'}._\n`;
    if (cut <= 0) {
      return `\n\n_${more}, nor in the deploy event, which lists the first ${listed} of ${total}; ${scan} has every issue._\n`;
    }
    return `\n\n_${more}: the deploy event lists ${cut} of them (its first ${listed} of ${total}); ${scan} has every issue._\n`;
  };
  // Reserve room for the longest possible note (with no row shown, or with every listed row), then add
  // rows while they fit.
  const budget =
    limit - Math.max(byteLength(note(0)), byteLength(note(listed))) - byteLength(head) - byteLength(tail);
  const shown = rowsWithin(rows, budget);
  return head + '\n' + rows.slice(0, shown).join('\n') + note(shown).replace(/\n+$/, '\n') + tail;
}

function issueBlock(issue: GateIssue, n: number, result: GateResult): string {
  const help = ruleHelpDestination(issue.help_url);
  const rule = help ? `[${markdownCode(issue.rule)}](${help})` : markdownCode(issue.rule);
  const at = sourceText(issue);
  const url = linkDestination(sourceUrl(issue, result.repository, result.sha));
  const where = at ? (url ? `[${markdownCode(at)}](${url})` : markdownCode(at)) : 'not located';
  const html = htmlSnippet(issue.html);
  const steps = fixSteps(issue.message).slice(0, 5);
  const lines = [
    `${n}. **${markdownText(truncate(oneLineMessage(issue), 300))}** · ${issue.impact ?? 'unknown impact'} · ${rule}` +
      (issue.engine_change ? ' · engine change' : ''),
    `   - Source: ${where} · page ${pageText(issue)}`,
    `   - Element: ${markdownCode(html ?? truncate(issue.selector ?? '', 200))}`,
  ];
  if (hasFixList(issue.message) && steps.length > 0) {
    lines.push(
      `   - ${fixHeading(issue.message)}:`,
      ...steps.map((s) => `     - ${markdownText(truncate(s, 300))}`),
    );
  }
  if (issue.wcag?.length) lines.push(`   - WCAG ${markdownText(issue.wcag.join(', '))}`);
  return lines.join('\n');
}

/** The page of a finding as code (or a word when the scan named none), and its viewport when it has one. */
function pageText(issue: Pick<GateIssue, 'page_url' | 'viewport'>): string {
  const page = issue.page_url ? markdownCode(issue.page_url) : 'not named';
  return issue.viewport ? `${page} at ${markdownText(issue.viewport)}` : page;
}

/**
 * The issues that differ only because the engine changed, one line each, apart from the new ones (they
 * fail nothing unless the site judges them); at most `limit` bytes, with a note when cut.
 */
export function engineChangedList(result: GateResult, limit: number): string {
  const change = result.engine_change;
  const issues = result.engine_changed_issues ?? [];
  if (!change || issues.length === 0) return '';
  const head = `\n#### Issues that differ because the engine changed (${change.appeared} in this commit's scan)\n\n`;
  const note = '\n_More are listed in the deploy event._\n';
  let out = head;
  for (const issue of issues) {
    const line =
      `- ${markdownText(truncate(oneLineMessage(issue), 200))} · ${issue.impact ?? 'unknown impact'}` +
      ` · page ${pageText(issue)}\n`;
    if (byteLength(out + line + note) > limit) return out === head ? '' : out + note;
    out += line;
  }
  return out;
}
