import type { CreateScanBody, ScanPageInput } from '../schemas/scans.js';
import { issuesFromAxe, rulesRunByAxe } from './axe-import.js';
import { issueFingerprint } from './fingerprint.js';
import type { ImportedIssue } from './imported-issue.js';
import { issuesFromPa11y } from './pa11y-import.js';
import {
  scanWarnings,
  summarize,
  type PageFacts,
  type ScanSummary,
  type ScanWarning,
} from './scan-summary.js';
import { replaceNul, truncateUtf8 } from './text-truncation.js';
import { defaultSiteId, normalizeUrl, pageKey } from './url-normalisation.js';

/**
 * Turns a validated scan body into what is stored: pages with normalised URLs, every input form
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
  normalized_url: string;
  title: string | null;
  final_url: string | null;
  http_status: number | null;
  issue_count: number;
  /**
   * Rule ids that ran on this page, sorted, or null when unknown. An axe page lists its own (passes,
   * violations, incomplete, inapplicable); a native or pa11y page gets the body's `rules_run`, which
   * speaks for those pages only (an axe page's own list is more precise than a scan-wide claim).
   */
  rules_run: string[] | null;
}

export interface PreparedIssue extends ImportedIssue {
  page_index: number;
  fingerprint: string;
}

export interface PreparedScan {
  siteId: string;
  url: string;
  sha: string | null;
  branch: string | null;
  engine: { name: string; version: string | null } | null;
  run_attempt: number | null;
  rules_run: string[] | null;
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

function pageIssues(page: ScanPageInput, options: PreparationOptions): ImportedIssue[] {
  if (page.axe) return issuesFromAxe(page.axe);
  if (page.pa11y) {
    return issuesFromPa11y(
      Array.isArray(page.pa11y) ? page.pa11y : page.pa11y.issues,
      options.criteriaOfAxeRule,
    );
  }
  return (page.issues ?? []).map((i) => ({
    rule: i.rule,
    impact: i.impact ?? null,
    kind: i.kind,
    message: i.message ?? null,
    selector: i.selector ?? null,
    html: i.html ?? null,
    wcag: i.wcag ? [...new Set(i.wcag)] : [],
    help_url: i.help_url ?? null,
    source: i.source ? { path: i.source.path, line: i.source.line ?? null } : null,
  }));
}

/**
 * How many issues a page will give, counted without building them: a 25 MB body can hold millions
 * of tiny axe nodes, and expanding them all before checking the limit would cost gigabytes.
 */
function pageIssueCount(page: ScanPageInput): number {
  if (page.axe) {
    let n = 0;
    for (const rule of page.axe.violations) n += rule.nodes.length;
    for (const rule of page.axe.incomplete) n += rule.nodes.length;
    return n;
  }
  if (page.pa11y) return Array.isArray(page.pa11y) ? page.pa11y.length : page.pa11y.issues.length;
  return page.issues?.length ?? 0;
}

function pageTitle(page: ScanPageInput): string | null {
  if (page.title !== undefined && page.title !== null) return page.title;
  if (page.pa11y && !Array.isArray(page.pa11y)) return page.pa11y.documentTitle ?? null;
  return null;
}

/**
 * Where the engine says it ran: axe's `url` and pa11y's `pageUrl` are the document's location after
 * redirects, so they stand in for a missing `final_url` (and reveal the login-page trap).
 */
function engineReportedUrl(page: ScanPageInput): string | null {
  if (page.axe?.url) return page.axe.url;
  if (page.pa11y && !Array.isArray(page.pa11y) && page.pa11y.pageUrl) return page.pa11y.pageUrl;
  return null;
}

function scanEngine(body: CreateScanBody): PreparedScan['engine'] {
  if (body.engine) return { name: body.engine.name, version: body.engine.version ?? null };
  for (const page of body.pages) {
    if (page.axe?.testEngine?.name) {
      return { name: page.axe.testEngine.name, version: page.axe.testEngine.version ?? null };
    }
  }
  if (body.pages.some((p) => p.pa11y)) return { name: 'pa11y', version: null };
  return null;
}

export function prepareScan(
  body: CreateScanBody,
  limits: ScanLimits,
  options: PreparationOptions = {},
): Preparation {
  const fail = (status: 413 | 422, pointer: string, detail: string): Preparation => ({
    ok: false,
    error: { status, pointer, detail },
  });
  if (body.pages.length > limits.pagesPerScan) {
    return fail(
      413,
      '#/pages',
      `a scan may have at most ${limits.pagesPerScan} pages (got ${body.pages.length})`,
    );
  }
  const siteId = body.siteId ?? defaultSiteId(body.url);
  if (!siteId) {
    return fail(422, '#/siteId', "is required: the url's host name is not a valid siteId");
  }

  const pages: PreparedPage[] = [];
  const facts: PageFacts[] = [];
  const issues: PreparedIssue[] = [];
  const rulesRun = body.rules_run ? new Set(body.rules_run) : undefined;
  const declaredRules = rulesRun ? [...rulesRun].sort() : null;
  let axeRules: Set<string> | undefined;
  let truncated = 0;

  for (let index = 0; index < body.pages.length; index++) {
    const page = body.pages[index];
    const normalized = normalizeUrl(page.url, body.url);
    if (!normalized)
      return fail(422, `#/pages/${index}/url`, 'must be an http(s) URL, absolute or relative to `url`');
    const finalUrl = page.final_url ?? engineReportedUrl(page);
    const normalizedFinal = finalUrl ? (normalizeUrl(finalUrl, normalized) ?? null) : null;
    const key = pageKey(normalized);
    if (issues.length + pageIssueCount(page) > limits.issuesPerScan) {
      return fail(413, `#/pages/${index}`, `a scan may have at most ${limits.issuesPerScan} issues`);
    }
    const imported = pageIssues(page, options);
    for (const issue of imported) {
      issue.message = replaceNul(issue.message);
      issue.selector = replaceNul(issue.selector);
      issue.help_url = replaceNul(issue.help_url);
      issue.html = replaceNul(issue.html);
      if (issue.html !== null) {
        const cut = truncateUtf8(issue.html, limits.issueHtmlBytes);
        if (cut.truncated) {
          truncated++;
          issue.html = cut.text;
        }
      }
      const prepared = issue as PreparedIssue;
      prepared.page_index = index;
      prepared.fingerprint = issueFingerprint({ rule: issue.rule, pageKey: key, selector: issue.selector });
      issues.push(prepared);
    }
    let pageRules = declaredRules;
    if (page.axe) {
      axeRules ??= new Set();
      const ran = new Set(rulesRunByAxe(page.axe));
      for (const id of ran) axeRules.add(id);
      pageRules = [...ran].sort();
    }
    const title = replaceNul(pageTitle(page));
    pages.push({
      index,
      url: page.url,
      normalized_url: normalized,
      title,
      final_url: finalUrl,
      http_status: page.http_status ?? null,
      issue_count: imported.length,
      rules_run: pageRules,
    });
    facts.push({
      normalizedUrl: normalized,
      normalizedFinalUrl: normalizedFinal,
      title,
      httpStatus: page.http_status ?? null,
    });
  }

  // The scan-wide list stays the union (body and every axe page), or null when nothing says, as before
  // per-page lists existed; the VPAT reads the per-page lists.
  let rules_run: string[] | null = null;
  if (rulesRun || axeRules) rules_run = [...new Set([...(rulesRun ?? []), ...(axeRules ?? [])])].sort();

  return {
    ok: true,
    scan: {
      siteId,
      url: body.url,
      sha: body.sha ?? null,
      branch: body.branch ?? null,
      engine: scanEngine(body),
      run_attempt: body.run_attempt ?? null,
      rules_run,
      pages,
      issues,
      summary: summarize(pages.length, issues),
      warnings: scanWarnings(facts, truncated, limits.issueHtmlBytes),
    },
  };
}
