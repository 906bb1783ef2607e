import type { ServedFolderRef } from '../../../core/gate/served-folder.js';
import type { ImportedIssue } from '../../../core/scans/imported-issue.js';
import { defaultSiteId } from '../../../core/url-normalisation.js';
import type { ScanScope } from '../../../core/gate/coverage.js';
import type { Claim } from '../../../core/claims/deploy-claims.js';

/**
 * What a scan becomes before it is stored: its head, its pages with normalised URLs, its issues (every input
 * form converted, fingerprinted), and the errors that refuse it. The ScanBuilder prepares page by page.
 */

export interface ScanLimits {
  /** One request's (a whole scan's or a part's) pages and issues. */
  pagesPerRequest: number;
  issuesPerRequest: number;
  /** A scan's pages and issues with all its parts. */
  pagesPerScan: number;
  issuesPerScan: number;
  issueHtmlBytes: number;
}

export interface PreparedPage {
  index: number;
  url: string;
  /** The viewport it was scanned at, when the body named one; null: the one default viewport. */
  viewport: string | null;
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
  /**
   * Rule ids that ran on this page and found nothing to test (axe-core's `inapplicable`), sorted, or null
   * when unknown: an axe page's own list, a native or pa11y page's `rules_inapplicable`.
   */
  rulesInapplicable: string[] | null;
}

export interface PreparedIssue extends ImportedIssue {
  pageIndex: number;
  fingerprint: string;
}

/** An element a rule passed on, as stored (api/domain/scans/passes.ts). */
export interface PreparedPass {
  pageIndex: number;
  rule: string;
  selector: string | null;
  html: string | null;
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
  /** When the pages were scanned, if the body said (imported history); else the scan's creation. */
  scannedAt?: string | null;
  /** `partial`: the scan covers only its pages (compared on those alone, never a baseline). */
  scope: ScanScope;
  /** The body's `rules_run` (native and pa11y pages) merged with the axe pages' own, or null. */
  rulesRun: string[] | null;
  /** Fixes the body claims, answered when the gate judges the scan; empty when none. */
  claims?: Claim[];
  /** The built folder the CLI served for the scan (`--serve`), or null. */
  served?: ServedFolderRef | null;
}

export interface PreparationError {
  /** 413: over a configured size limit; 422: a value the schema cannot judge alone. */
  status: 413 | 422;
  pointer: string;
  detail: string;
  /** The configured limit that refused it, by its published name. */
  limit?: {
    name: 'pages_per_request' | 'issues_per_request' | 'pages_per_scan' | 'issues_per_scan';
    value: number;
  };
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

/** A request's `count` pages over the per-request limit, or with the `stored` ones over the per-scan one. */
export function pageLimitError(count: number, limits: ScanLimits, stored = 0): PreparationError | undefined {
  if (count > limits.pagesPerRequest) {
    return {
      status: 413,
      pointer: '#/pages',
      detail: `a request may have at most ${limits.pagesPerRequest} pages (got ${count})`,
      limit: { name: 'pages_per_request', value: limits.pagesPerRequest },
    };
  }
  if (stored + count > limits.pagesPerScan) {
    return {
      status: 413,
      pointer: '#/pages',
      detail: `a scan may have at most ${limits.pagesPerScan} pages with all its parts (has ${stored}, got ${count} more)`,
      limit: { name: 'pages_per_scan', value: limits.pagesPerScan },
    };
  }
  return undefined;
}

/** The issues of a page would take the request or the scan past its limit. */
export function issueLimitError(
  limits: ScanLimits,
  inRequest: number,
  inScan: number,
  bodyIndex: number,
): PreparationError | undefined {
  const pointer = `#/pages/${bodyIndex}`;
  if (inRequest > limits.issuesPerRequest) {
    return {
      status: 413,
      pointer,
      detail: `a request may have at most ${limits.issuesPerRequest} issues`,
      limit: { name: 'issues_per_request', value: limits.issuesPerRequest },
    };
  }
  if (inScan > limits.issuesPerScan) {
    return {
      status: 413,
      pointer,
      detail: `a scan may have at most ${limits.issuesPerScan} issues with all its parts`,
      limit: { name: 'issues_per_scan', value: limits.issuesPerScan },
    };
  }
  return undefined;
}
