/**
 * A finding in plain words, as every face shows it (check run, annotations, job summary, CLI, SARIF):
 * a one-line message, how to fix it as a short list, where it is in the repository (linked at the commit),
 * and a command that scans the failing pages again. Pure.
 */
import type { GateIssue } from './deploy-event.js';
import { isLoopbackUrl, servedPath, type ServedFolderRef } from './served-folder.js';
import { oneLine } from '../text/github-markdown.js';
import { truncate } from '../text/truncation.js';

/** axe-core's failure summary as steps: "Fix any of the following:\n  a\n  b" → ["a", "b"]. */
export function fixSteps(message: string | null | undefined): string[] {
  if (!message) return [];
  return message
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !/^Fix (any|all) of the following:?$/i.test(l));
}

/** True when the message is axe-core's failure summary, whose steps are worth a list of their own. */
export function hasFixList(message: string | null | undefined): boolean {
  return /Fix (any|all) of the following/i.test(message ?? '');
}

/** Whether every step is needed ("all") or one is enough ("any"), as a heading for the list. */
export function fixHeading(message: string | null | undefined): string {
  const all = /Fix all of the following/i.test(message ?? '');
  const any = /Fix any of the following/i.test(message ?? '');
  if (all && any) return 'Fix all of the first group and one of the rest';
  if (all) return 'Fix all of these';
  return any ? 'Fix one of these' : 'To fix';
}

/** One line in plain words: the first thing wrong with the element, named by its rule. */
export function oneLineMessage(issue: Pick<GateIssue, 'rule' | 'message'>): string {
  const first = fixSteps(issue.message)[0];
  return first ? `${first} (${issue.rule})` : issue.rule;
}

/** `path:line` (or the path alone) of a located issue, null when it has no location. */
export function sourceText(issue: Pick<GateIssue, 'source'>): string | null {
  const s = issue.source;
  if (!s?.path) return null;
  return s.line ? `${s.path}:${s.line}` : s.path;
}

/** The file at the commit on GitHub, at the line: null without a repository. */
export function sourceUrl(
  issue: Pick<GateIssue, 'source'>,
  repository: string | null | undefined,
  sha: string,
): string | null {
  const s = issue.source;
  if (!s?.path || !repository) return null;
  // One line and no lone surrogate (which encodeURIComponent throws on): the path is the scan's to write.
  const file = oneLine(s.path).split('/').map(encodeURIComponent).join('/');
  return `https://github.com/${repository}/blob/${sha}/${file}${s.line ? `#L${s.line}` : ''}`;
}

/** The element's markup on one line, cut to `max` characters. */
export function htmlSnippet(html: string | null | undefined, max = 160): string | null {
  if (!html) return null;
  const line = html.replace(/\s+/g, ' ').trim();
  return truncate(line, max);
}

/** Quotes a URL for a POSIX shell. */
function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The CLI on just the pages with new issues, at the viewports they were found at, locating findings from
 * the repository's root. Pages of a served folder (on loopback) are named by their path with `--serve DIR`:
 * the port they were served at is gone once the run ends.
 */
export function reproduceCommand(
  issues: Array<Pick<GateIssue, 'page_url' | 'viewport'>>,
  served: ServedFolderRef | null = null,
  max = 10,
): string | null {
  const page = (url: string) => (served && isLoopbackUrl(url) ? servedPath(url) : url);
  const pages = [
    ...new Set(
      issues
        .map((i) => i.page_url)
        .filter(Boolean)
        .map(page),
    ),
  ].slice(0, max);
  if (pages.length === 0) return null;
  const viewports = [...new Set(issues.map((i) => i.viewport).filter((v): v is string => !!v))];
  return [
    'npx a11y-gate scan',
    ...pages.map(shellQuote),
    ...(served ? ['--serve', shellQuote(served.dir), ...(served.spa ? ['--spa'] : [])] : []),
    ...viewports.map((v) => `--viewport ${shellQuote(v)}`),
    '--source-root .',
  ].join(' ');
}
