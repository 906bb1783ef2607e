/**
 * The pull request comment of one site's gate result, in markdown: the verdict, the counts, the new
 * issues (rule, impact, page, the source line linked at the commit, a thumbnail when one is given) and
 * links to the console. One comment per pull request and site, found again by its hidden marker and
 * rewritten for every later result. Pure: the App and the Action render the same text.
 */
import type { GateIssue, GateResult } from '../gate/deploy-event.js';
import { fixSteps, sourceText, sourceUrl } from '../gate/finding-text.js';
import { byteLength, coverageLines, gateReportTitle, rowsWithin, totalNew } from '../gate/report.js';
import { truncate } from '../text/truncation.js';
import { claimsLines } from '../claims/report.js';
import { linkDestination, markdownCode, markdownText, ruleHelpDestination } from '../text/github-markdown.js';

/** GitHub refuses an issue or pull request comment body longer than this. */
export const GITHUB_COMMENT_LIMIT = 65_536;

/**
 * The hidden first line that finds a site's comment again among a pull request's comments. The site id is
 * written so that no two ids give one marker and the HTML comment cannot end early: `%`, `>`, anything
 * outside `a-z0-9._-`, and every `-` right after another `-` become `%<hex>;` (`x--a` is `x-%2d;a`, while
 * `x-a` stays `x-a`). Ids without those characters (nearly all) keep the marker they always had.
 */
export function commentMarker(siteId: string): string {
  const id = siteId.replace(/[^a-z0-9._-]|(?<=-)-/g, (c) => `%${c.charCodeAt(0).toString(16)};`);
  return `<!-- a11y-gate:${id} -->`;
}

/**
 * The marker earlier versions wrote: runs of `-` collapsed and `>` dropped, so `x-a` and `x--a` shared
 * one. A comment carrying it is the site's only when its heading names the site exactly.
 */
function earlierMarker(siteId: string): string {
  return `<!-- a11y-gate:${siteId.replace(/--+/g, '-').replace(/>/g, '')} -->`;
}

/**
 * Whether a comment's body is the site's sticky comment: its marker, or the earlier marker, and a heading
 * that names this site (an earlier marker may be another site's, and the site `x-a`'s marker is the earlier
 * one of `x--a`). A comment whose heading cannot be read is judged by its marker alone.
 */
export function isSiteComment(body: string, siteId: string): boolean {
  const marker = commentMarker(siteId);
  const earlier = earlierMarker(siteId);
  const start = body.startsWith(marker + '\n') ? marker : body.startsWith(earlier + '\n') ? earlier : null;
  if (start === null) return false;
  const heading = body.slice(start.length + 1).split('\n', 1)[0];
  const named = /^### \S+ Accessibility gate (?:passed|failed): `([^`]*)`$/.exec(heading)?.[1];
  return named === siteId || (named === undefined && start === marker);
}

export interface PullRequestCommentInput {
  result: GateResult;
  /** The console's page of the deploy event; absent when no public address is configured. */
  deployUrl?: string;
  /** A picture of an issue's element (a signed image URL), when there is one. */
  thumbnailOf?: (issue: GateIssue) => string | undefined;
  /** Character limit of the body (GitHub's unless a test wants a smaller one). */
  limit?: number;
  /** Where every issue is listed when there is no deploy event to link (a gate judged without a service). */
  listedIn?: string;
}

export function renderPullRequestComment(input: PullRequestCommentInput): string {
  const { result } = input;
  const head = [
    commentMarker(result.siteId),
    ...verdictLines(input),
    '',
    countsTable(result),
    ...comparedLines(result),
  ];
  const newCount = totalNew(result);
  if (newCount === 0) {
    return head.join('\n') + '\n\n' + nothingNewLine(result) + footer(input);
  }
  const rows = result.new_issues.map((issue, i) =>
    issueBlock(issue, i + 1, result, linkDestination(input.thumbnailOf?.(issue))),
  );
  const top = [...head, '', `#### New issues (${newCount})`, ''].join('\n') + '\n';
  const end = footer(input);
  const limit = input.limit ?? GITHUB_COMMENT_LIMIT;
  const more = (left: number) => (left > 0 ? `\n_…and ${left} more${seeAll(input)}._\n` : '');
  // Room for the longest "and K more" line, then rows while they fit.
  const budget = limit - byteLength(top) - byteLength(end) - byteLength(more(newCount));
  const shown = rowsWithin(rows, budget);
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
    `### ${icon} Accessibility gate ${verdict}: ${markdownCode(result.siteId)}`,
    '',
    `**${markdownText(gateReportTitle(result))}** at commit \`${result.sha.slice(0, 12)}\`${deploy}`,
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

/**
 * What the counts were compared with, when it changes how they read: no scan of the base branch (the
 * gate's reason, which says what to do), or a partial scan's pages.
 */
function comparedLines(result: GateResult): string[] {
  const lines: string[] = [];
  const b = result.baseline;
  const recorded = result.reasons.some((r) => r.code === 'baseline_recorded');
  if (b && !b.scan_id && b.reason && !recorded) lines.push('', markdownText(b.reason));
  if (result.coverage) lines.push('', ...coverageLines(result.coverage));
  lines.push(...claimsLines(result.claims));
  return lines;
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
  return input.deployUrl
    ? `: [see them all](${input.deployUrl})`
    : ` in ${input.listedIn ?? 'the deploy event'}`;
}

/** One new issue as a list item: rule, impact, where (file and line at the commit, page), what, picture. */
function issueBlock(issue: GateIssue, n: number, result: GateResult, thumb: string | undefined): string {
  const help = ruleHelpDestination(issue.help_url);
  const rule = help ? `[${markdownCode(issue.rule)}](${help})` : markdownCode(issue.rule);
  const at = sourceText(issue);
  const url = linkDestination(sourceUrl(issue, result.repository, result.sha));
  const source = at
    ? url
      ? `[${markdownCode(at)}](${url})`
      : markdownCode(at)
    : 'not located in the source';
  const viewport = issue.viewport ? ` at ${markdownText(truncate(issue.viewport, 100))}` : '';
  const page = issue.page_url ? ` · page ${markdownCode(truncate(issue.page_url, 200))}${viewport}` : '';
  const message = markdownText(truncate(fixSteps(issue.message)[0] ?? 'See the rule.', 300));
  // A backslash ends the line with a hard break wherever the markdown is rendered.
  const lines = [
    `${n}. ${rule} · **${issue.impact ?? 'unknown impact'}** · ${source}${page}\\`,
    `   ${message}`,
  ];
  if (thumb) {
    const alt = markdownText(`Element of ${issue.rule}: ${truncate(issue.selector ?? 'element', 120)}`);
    lines.push('', `   ![${alt}](${thumb})`);
  }
  return lines.join('\n') + '\n';
}
