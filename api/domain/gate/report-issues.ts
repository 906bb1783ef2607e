/**
 * The new issues of a deploy-gate result as a markdown table (part of the gate report), cut with a note
 * saying where the rest is when it would not fit.
 */
import { byteLength, GITHUB_TEXT_LIMIT, totalNew, truncate } from './report.js';
import { type GateIssue, type GateResult } from './deploy-event.js';

/** The new issues as a markdown table, cut (with a note) to fit GitHub's limit. */
export function newIssuesTable(result: GateResult, limit = GITHUB_TEXT_LIMIT): string {
  const total = totalNew(result);
  if (total === 0) return 'No new accessibility issues.\n';
  const head = [
    `#### New issues (${total})`,
    '',
    '| Impact | Rule | Page | Element | WCAG | Source |',
    '|---|---|---|---|---|---|',
  ].join('\n');
  const rows = result.new_issues.map(issueRow);
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
  const budget = limit - Math.max(byteLength(note(0)), byteLength(note(listed))) - byteLength(head);
  let used = 0;
  let shown = 0;
  for (const row of rows) {
    const size = byteLength(row) + 1;
    if (used + size > budget) break;
    used += size;
    shown++;
  }
  return head + '\n' + rows.slice(0, shown).join('\n') + note(shown);
}

function issueRow(issue: GateIssue): string {
  // In a link, brackets end the text and these characters end the URL or the table cell.
  const rule = issue.help_url
    ? `[${cell(issue.rule).replace(/[[\]]/g, '\\$&')}](${linkUrl(issue.help_url)})`
    : `\`${cell(issue.rule)}\``;
  const source = issue.source?.path
    ? `\`${cell(issue.source.path)}${issue.source.line ? `:${issue.source.line}` : ''}\``
    : '';
  return [
    '',
    issue.impact ?? '',
    rule,
    cell(issue.page_url ?? ''),
    issue.selector ? `\`${cell(truncate(issue.selector, 200))}\`` : '',
    cell((issue.wcag ?? []).join(', ')),
    source,
    '',
  ]
    .join(' | ')
    .trim();
}

/** Percent-encodes what would end a markdown link destination or a table cell (encodeURIComponent keeps parentheses). */
function linkUrl(url: string): string {
  return url.replace(/[()\s|<>`[\]]/g, (c) =>
    c === '(' ? '%28' : c === ')' ? '%29' : encodeURIComponent(c),
  );
}

/** Makes text safe inside a markdown table cell: one line, no column breaks, no stray backticks. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').replace(/`/g, "'");
}
