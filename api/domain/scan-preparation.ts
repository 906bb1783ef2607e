import type { CreateScanBody } from '../schemas/scans.js';
import type { ImportedIssue } from './imported-issue.js';
import { ScanBuilder } from './scan-builder.js';
import type { ScanSummary, ScanWarning } from './scan-summary.js';
import { defaultSiteId } from './url-normalisation.js';

/**
 * Turns a validated scan body into what is stored, all at once (the service stores pages as they are
 * prepared, with the ScanBuilder this uses): pages with normalised URLs, every input form
 * converted to issues, fingerprints, the summary and the warnings. Pure; the limits are passed in.
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

export interface PreparedScan extends ScanHead {
  pages: PreparedPage[];
  issues: PreparedIssue[];
  summary: ScanSummary;
  warnings: ScanWarning[];
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

export type Preparation = { ok: true; scan: PreparedScan } | { ok: false; error: PreparationError };

/** The site a scan belongs to: the body's, else the host name of its url (null when that is no siteId). */
export function scanSiteId(body: Pick<CreateScanBody, 'siteId' | 'url'>): string | null {
  return body.siteId ?? defaultSiteId(body.url) ?? null;
}

export function pageLimitError(count: number, limits: ScanLimits): PreparationError | undefined {
  if (count <= limits.pagesPerScan) return undefined;
  return {
    status: 413,
    pointer: '#/pages',
    detail: `a scan may have at most ${limits.pagesPerScan} pages (got ${count})`,
  };
}

export function prepareScan(
  body: CreateScanBody,
  limits: ScanLimits,
  options: PreparationOptions = {},
): Preparation {
  const tooMany = pageLimitError(body.pages.length, limits);
  if (tooMany) return { ok: false, error: tooMany };
  const siteId = scanSiteId(body);
  if (!siteId) {
    return {
      ok: false,
      error: {
        status: 422,
        pointer: '#/siteId',
        detail: "is required: the url's host name is not a valid siteId",
      },
    };
  }
  const builder = new ScanBuilder(body.url, body.rules_run, limits, options);
  const pages: PreparedPage[] = [];
  const issues: PreparedIssue[] = [];
  for (let index = 0; index < body.pages.length; index++) {
    const added = builder.addPage(body.pages[index], index);
    if (!added.ok) return added;
    pages.push(added.page);
    for (const issue of added.issues) issues.push(issue);
  }
  const engine = body.engine
    ? { name: body.engine.name, version: body.engine.version ?? null }
    : builder.engine;
  return {
    ok: true,
    scan: {
      siteId,
      url: body.url,
      sha: body.sha ?? null,
      branch: body.branch ?? null,
      engine,
      runAttempt: body.run_attempt ?? null,
      rulesRun: builder.rulesRun(),
      pages,
      issues,
      summary: builder.summary,
      warnings: builder.warnings(),
    },
  };
}
