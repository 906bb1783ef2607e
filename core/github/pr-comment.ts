/**
 * The pull request comment of one site's gate result, in markdown: the verdict, the counts, the new
 * issues (rule, impact, page, the source line linked at the commit, a thumbnail when one is given) and
 * links to the console. One comment per pull request and site, found again by its hidden marker and
 * rewritten for every later result. Pure: the App and the Action render the same text.
 */
import type { GateIssue, GateResult } from '../gate/deploy-event.js';
import { fixSteps, sourceText, sourceUrl } from '../gate/finding-text.js';
import { byteLength, gateReportTitle, totalNew, truncate } from '../gate/report.js';

/** GitHub refuses an issue or pull request comment body longer than this. */
export const GITHUB_COMMENT_LIMIT = 65_536;

/** The hidden first line that finds a site's comment again among a pull request's comments. */
export function commentMarker(siteId: string): string {
  return `<!-- a11y-gate:${siteId.replace(/--+/g, '-').replace(/>/g, '')} -->`;
}

export interface PullRequestCommentInput {
  result: GateResult;
  /** The console's page of the deploy event; absent when no public address is configured. */
  deployUrl?: string;
  /** A picture of an issue's element (a signed image URL), when there is one. */
  thumbnailOf?: (issue: GateIssue) => string | undefined;
  /** Character limit of the body (GitHub's unless a test wants a smaller one). */
  limit?: number;
}

export function renderPullRequestComment(input: PullRequestCommentInput): string {
  const { result } = input;
  const head = [commentMarker(result.siteId), ...verdictLines(input), '', countsTable(result)];
  const newCount = totalNew(result);
  if (newCount === 0) {
    return head.join('\n') + '\n\n' + nothingNewLine(result) + footer(input);
  }
  const rows = result.new_issues.map((issue, i) =>
    issueBlock(issue, i + 1, result, safeUrl(input.thumbnailOf?.(issue))),
  );
  const top = [...head, '', `#### New issues (${newCount})`, ''].join('\n') + '\n';
  const end = footer(input);
  const limit = input.limit ?? GITHUB_COMMENT_LIMIT;
  const more = (left: number) => (left > 0 ? `\n_…and ${left} more${seeAll(input)}._\n` : '');
  // Room for the longest "and K more" line, then rows while they fit.
  const budget = limit - byteLength(top) - byteLength(end) - byteLength(more(newCount));
  let used = 0;
  let shown = 0;
  for (const row of rows) {
    const size = byteLength(row) + 1;
    if (used + size > budget) break;
    used += size;
    shown++;
  }
  const body = rows
    .slice(0, shown)
    .map((r) => r + '\n')
    .join('');
  return top + body + more(newCount - shown) + end;
}

function verdictLines(input: PullRequestCommentInput): string[] {
  const { result } = input;
  const icon = result.passed ? '✅' : '❌';
  const verdict = result.passed ? 'passed' : 'failed';
  const deploy = input.deployUrl ? ` · [deploy event](${input.deployUrl})` : '';
  return [
    `### ${icon} Accessibility gate ${verdict}: \`${code(result.siteId)}\``,
    '',
    `**${text(gateReportTitle(result))}** at commit \`${result.sha.slice(0, 12)}\`${deploy}`,
  ];
}

function countsTable(result: GateResult): string {
  const c = result.counts;
  return [
    '| New | Fixed | Existing | Waived |',
    '|---:|---:|---:|---:|',
    `| ${c.new} | ${c.fixed} | ${c.existing} | ${c.waived} |`,
  ].join('\n');
}

function nothingNewLine(result: GateResult): string {
  if (result.reasons.some((r) => r.code === 'no_scan'))
    return 'No scan of this commit was found, so nothing was compared.\n';
  if (!result.passed) return 'Nothing new, but the gate’s thresholds on all issues failed.\n';
  return 'Nothing new: this commit adds no accessibility issues. This comment shows the latest result of the pull request.\n';
}

function footer(input: PullRequestCommentInput): string {
  return input.deployUrl
    ? `\n[Open the deploy event in the console](${input.deployUrl}) for every issue, the fixed ones and the baseline.\n`
    : '';
}

function seeAll(input: PullRequestCommentInput): string {
  return input.deployUrl ? `: [see them all](${input.deployUrl})` : ' in the deploy event';
}

/** One new issue as a list item: rule, impact, where (file and line at the commit, page), what, picture. */
function issueBlock(issue: GateIssue, n: number, result: GateResult, thumb: string | undefined): string {
  const help = safeUrl(issue.help_url);
  const rule = help ? `[\`${code(issue.rule)}\`](${help})` : `\`${code(issue.rule)}\``;
  const at = sourceText(issue);
  const url = safeUrl(sourceUrl(issue, result.repository, result.sha));
  const source = at ? (url ? `[\`${code(at)}\`](${url})` : `\`${code(at)}\``) : 'not located in the source';
  const page = issue.page_url ? ` · page \`${code(truncate(issue.page_url, 200))}\`` : '';
  const message = inline(truncate(fixSteps(issue.message)[0] ?? 'See the rule.', 300));
  // A backslash ends the line with a hard break wherever the markdown is rendered.
  const lines = [
    `${n}. ${rule} · **${issue.impact ?? 'unknown impact'}** · ${source}${page}\\`,
    `   ${message}`,
  ];
  if (thumb) {
    const alt = inline(`Element of ${issue.rule}: ${truncate(issue.selector ?? 'element', 120)}`).replace(
      /[[\]]/g,
      '',
    );
    lines.push('', `   ![${alt}](${thumb})`);
  }
  return lines.join('\n') + '\n';
}

/** An http(s) URL made safe inside a markdown link; anything else is dropped. */
function safeUrl(url: string | null | undefined): string | undefined {
  if (!url || !/^https?:\/\//i.test(url)) return undefined;
  return url.replace(/[()\s|<>`[\]]/g, (c) =>
    c === '(' ? '%28' : c === ')' ? '%29' : encodeURIComponent(c),
  );
}

/** Text in a table cell: one line, no table or html breaks. */
function text(s: string): string {
  return s.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Scanned text as plain inline markdown: one line, every markup character escaped, no html. */
function inline(s: string): string {
  return s
    .replace(/\r?\n/g, ' ')
    .replace(/[\\`*_[\]#|!~]/g, '\\$&')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Text inside backticks: one line, no backtick to end it early. */
function code(s: string): string {
  return s.replace(/\r?\n/g, ' ').replace(/`/g, "'");
}
