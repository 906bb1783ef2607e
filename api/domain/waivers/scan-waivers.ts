import type { WaiverMatcher } from '../../../core/waivers/match.js';

/**
 * Which active waiver covers each issue of a stored scan (a waived issue is still shown
 * everywhere, as waived). Uses the gate's own matcher, so the scan view and the gate never
 * disagree about what a waiver covers at the same moment. Pure; the caller reads the waivers.
 */

export interface WaiverViewPage {
  index: number;
  url: string;
  normalizedUrl: string;
}

export interface WaiverViewIssue {
  pageIndex: number;
  rule: string;
  selector: string | null;
  fingerprint: string;
}

/** The id of the oldest active waiver that matches an issue, or null. */
export type ScanWaiverLookup = (issue: WaiverViewIssue) => string | null;

/**
 * Builds the lookup once per scan: each page's URLs (as submitted and normalised, the gate's pair) are
 * computed once, and a scan of a site without active waivers costs nothing per issue.
 */
export function scanWaiverLookup(matcher: WaiverMatcher, pages: readonly WaiverViewPage[]): ScanWaiverLookup {
  if (matcher.size === 0) return () => null;
  const urlsByPage = new Map<number, string[]>();
  for (const p of pages) {
    urlsByPage.set(
      p.index,
      p.normalizedUrl && p.normalizedUrl !== p.url ? [p.url, p.normalizedUrl] : [p.url],
    );
  }
  const none: string[] = [];
  return (issue) =>
    matcher.match({
      rule: issue.rule,
      selector: issue.selector,
      fingerprint: issue.fingerprint,
      pageUrls: urlsByPage.get(issue.pageIndex) ?? none,
    }) ?? null;
}
