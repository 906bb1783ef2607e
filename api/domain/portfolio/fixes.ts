import type { Impact } from '../../../core/impact.js';
import type { ImportedIssue } from '../../../core/scans/imported-issue.js';
import { openingTagKey } from '../../../core/matching/element-identity.js';

/**
 * The fixes that clear the most (docs/portfolio.md): a site's open issues grouped by shared cause and
 * ranked. The cause is the located source `path:line` when the issue has one, else the same rule on the
 * same element markup (the opening tag as element identities compare it: a shared component), else the
 * same rule on the same selector. Pure.
 */

/** One open issue as the ranking reads it. */
export interface FixIssue {
  page: string;
  rule: string;
  impact: Impact | null;
  selector: string | null;
  html: string | null;
  source: { path: string; line: number | null } | null;
}

/** An issue of a page at `pageUrl` as the ranking reads it. */
export function fixIssueOf(
  pageUrl: string,
  i: Pick<ImportedIssue, 'rule' | 'impact' | 'selector' | 'html' | 'source'>,
): FixIssue {
  return {
    page: pageUrl,
    rule: i.rule,
    impact: i.impact,
    selector: i.selector,
    html: i.html,
    source: i.source && { path: i.source.path, line: i.source.line },
  };
}

export type FixKind = 'source' | 'markup' | 'selector';

export interface FixGroup {
  kind: FixKind;
  /** The located source (kind `source`). */
  path: string | null;
  line: number | null;
  /** The normalised opening tag (kind `markup`). */
  markup: string | null;
  /** One element's selector, to find it on a page. */
  selector: string | null;
  rules: string[];
  /** The highest impact among its issues. */
  impact: Impact | null;
  score: number;
  pageCount: number;
  issueCount: number;
  /** Its pages in order, the first `MAX_FIX_PAGES`. */
  pages: string[];
}

/**
 * What clearing a page of a group's issues weighs, by the highest impact cleared on it: a critical
 * issue blocks a task outright, a serious one nearly does, so each weighs several times the next.
 */
export const FIX_WEIGHTS: Record<Impact | 'unknown', number> = {
  critical: 10,
  serious: 5,
  moderate: 2,
  minor: 1,
  unknown: 1,
};

/** Pages listed per group (its `page_count` says how many in all). */
export const MAX_FIX_PAGES = 50;

const weight = (i: Impact | null) => FIX_WEIGHTS[i ?? 'unknown'];

function causeOf(issue: FixIssue): { key: string; kind: FixKind; markup: string | null } {
  if (issue.source)
    return { key: `s\n${issue.source.path}\n${issue.source.line ?? ''}`, kind: 'source', markup: null };
  const markup = openingTagKey(issue.html);
  if (markup) return { key: `m\n${issue.rule}\n${markup}`, kind: 'markup', markup };
  return { key: `e\n${issue.rule}\n${issue.selector ?? ''}`, kind: 'selector', markup: null };
}

/**
 * The groups of a site's open issues, best first: by score (the sum over its pages of the weight of
 * the highest impact it clears there), then pages, then issues, then cause.
 */
export function fixGroups(issues: readonly FixIssue[]): FixGroup[] {
  const groups = new Map<string, { group: FixGroup; pageWeights: Map<string, number> }>();
  for (const issue of issues) {
    const cause = causeOf(issue);
    let g = groups.get(cause.key);
    if (!g) {
      g = {
        group: {
          kind: cause.kind,
          path: issue.source?.path ?? null,
          line: issue.source?.line ?? null,
          markup: cause.markup,
          selector: issue.selector,
          rules: [],
          impact: null,
          score: 0,
          pageCount: 0,
          issueCount: 0,
          pages: [],
        },
        pageWeights: new Map(),
      };
      groups.set(cause.key, g);
    }
    const { group, pageWeights } = g;
    group.issueCount++;
    if (!group.rules.includes(issue.rule)) group.rules.push(issue.rule);
    if (group.impact === null || weight(issue.impact) > weight(group.impact))
      group.impact = issue.impact ?? group.impact;
    pageWeights.set(issue.page, Math.max(pageWeights.get(issue.page) ?? 0, weight(issue.impact)));
  }
  const keyed = [...groups].map(([key, { group, pageWeights }]) => {
    const pages = [...pageWeights.keys()].sort();
    group.rules.sort();
    group.pageCount = pages.length;
    group.pages = pages.slice(0, MAX_FIX_PAGES);
    group.score = [...pageWeights.values()].reduce((a, b) => a + b, 0);
    return { key, group };
  });
  keyed.sort(
    (a, b) =>
      b.group.score - a.group.score ||
      b.group.pageCount - a.group.pageCount ||
      b.group.issueCount - a.group.issueCount ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  return keyed.map((k) => k.group);
}

/** Orders groups of several sites as `fixGroups` orders one site's (ties: by site). */
export function compareFixes(
  a: Pick<FixGroup, 'score' | 'pageCount' | 'issueCount'> & { siteId: string },
  b: Pick<FixGroup, 'score' | 'pageCount' | 'issueCount'> & { siteId: string },
): number {
  return (
    b.score - a.score ||
    b.pageCount - a.pageCount ||
    b.issueCount - a.issueCount ||
    (a.siteId < b.siteId ? -1 : a.siteId > b.siteId ? 1 : 0)
  );
}

/**
 * One link to a located fix's code: its blob on GitHub at the scanned commit when the site names its
 * repository, else the path itself (`path:line`). Null for a fix without a located source.
 */
export function fixCodeLink(
  fix: Pick<FixGroup, 'path' | 'line'>,
  repository: string | null,
  ref: string | null,
): string | null {
  if (fix.path === null) return null;
  const path = fix.path.replace(/^\.?\//, '');
  if (!repository || !ref) return fix.line === null ? path : `${path}:${fix.line}`;
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return `https://github.com/${repository}/blob/${encodeURIComponent(ref)}/${encoded}${fix.line === null ? '' : `#L${fix.line}`}`;
}
