import type { ImportedIssue } from './imported-issue.js';
import { defaultSiteId } from '../url-normalisation.js';

/**
 * What a scan becomes before it is stored: its head, its pages with normalised URLs, its issues (every input
 * form converted, fingerprinted), and the errors that refuse it. The ScanBuilder prepares page by page.
 */

export interface ScanLimits {
  pagesPerScan: number;
  issuesPerScan: number;
  issueHtmlBytes: number;
}

export interface PreparedPage {
  index: number;
  url: string;
  normalizedUrl: string;
  title: string | null;
  finalUrl: string | null;
  httpStatus: number | null;
  issueCount: number;
  /**
   * Rule ids that ran on this page, sorted, or null when unknown. An axe page lists its own (passes,
   * violations, incomplete, inapplicable); a native or pa11y page gets the body's `rules_run`, which
   * speaks for those pages only (an axe page's own list is more precise than a scan-wide claim).
   */
  rulesRun: string[] | null;
}

export interface PreparedIssue extends ImportedIssue {
  pageIndex: number;
  fingerprint: string;
}

/** What a scan says about itself, before any page is read. */
export interface ScanHead {
  siteId: string;
  url: string;
  sha: string | null;
  branch: string | null;
  engine: { name: string; version: string | null } | null;
  runAttempt: number | null;
  /** The body's `rules_run` (native and pa11y pages) merged with the axe pages' own, or null. */
  rulesRun: string[] | null;
}

export interface PreparationError {
  /** 413: over a configured size limit; 422: a value the schema cannot judge alone. */
  status: 413 | 422;
  pointer: string;
  detail: string;
}

export interface PreparationOptions {
  /** WCAG criteria of an axe rule id, for pa11y's axe runner (which drops axe's tags). */
  criteriaOfAxeRule?: (ruleId: string) => string[];
}

/** The site a scan belongs to: the body's, else the host name of its url (null when that is no siteId). */
export function scanSiteId(body: { siteId?: string; url: string }): string | null {
  return body.siteId ?? defaultSiteId(body.url) ?? null;
}

/** A body with no siteId whose url's host name cannot stand in for one. */
export const SITE_ID_MISSING: PreparationError = {
  status: 422,
  pointer: '#/siteId',
  detail: "is required: the url's host name is not a valid siteId",
};

export function pageLimitError(count: number, limits: ScanLimits): PreparationError | undefined {
  if (count <= limits.pagesPerScan) return undefined;
  return {
    status: 413,
    pointer: '#/pages',
    detail: `a scan may have at most ${limits.pagesPerScan} pages (got ${count})`,
  };
}
