import type { ScanPageInput } from './input.js';
import { issuesFromAxe, rulesRunByAxe } from './axe-import.js';
import { issueFingerprint, viewportPageKey } from '../../../core/matching/fingerprint.js';
import { issueSource, type ImportedIssue } from '../../../core/scans/imported-issue.js';
import { issuesFromPa11y } from './pa11y-import.js';
import type {
  PreparationError,
  PreparationOptions,
  PreparedIssue,
  PreparedPage,
  PreparedPass,
  ScanLimits,
} from './preparation.js';
import { preparePasses } from './passes.js';
import { issueLimitError } from './preparation.js';
import { emptySummary, scanWarnings, type PageFacts, type ScanSummary, type ScanWarning } from './summary.js';
import { replaceNul, truncateUtf8 } from '../../../core/text/truncation.js';
import { normalizeUrl, pageKey } from '../../../core/url-normalisation.js';

/**
 * Prepares the pages of a scan one at a time: each page's rows are handed back to be stored at once,
 * and only what the summary and the warnings need is kept. Memory is then bounded by a page, not by
 * the scan, and a scan sent in parts is prepared batch by batch with the same code.
 */

export type PageEngine = { name: string; version: string | null };

export type PreparedPageRows = {
  ok: true;
  page: PreparedPage;
  issues: PreparedIssue[];
  passes: PreparedPass[];
};

/**
 * A page at an address the scan already holds (`/index.html` after `/`): one page, one address, so the
 * first is kept and this one is left out with its issues (the same document scanned twice would count
 * every issue twice).
 */
export type RepeatedPage = { ok: true; repeated: true };

export interface BuilderStart {
  /** Index the first page gets (pages already stored in earlier parts). */
  pageIndex: number;
  /** Issues already stored in earlier parts (the issue limit counts per request). */
  issueCount: number;
  /** The engine the scan already names (declared, or from its earlier parts' pages). */
  engine?: PageEngine | null;
  /** The normalised addresses of the pages stored in earlier parts. */
  addresses?: Iterable<string>;
}

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
    helpUrl: i.help_url ?? null,
    source: issueSource(i.source),
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

export class ScanBuilder {
  readonly summary: ScanSummary = emptySummary();
  readonly facts: PageFacts[] = [];
  /** Issues whose `html` was cut to the limit. */
  truncated = 0;
  /** The first axe page's `testEngine`, else pa11y when a page is in pa11y form. */
  engine: PageEngine | null = null;
  private pageIndex: number;
  private readonly firstIndex: number;
  private issueCount: number;
  private readonly startIssues: number;
  private axeRules: Set<string> | undefined;
  private readonly declaredRules: string[] | null;
  /** The addresses of the scan's pages so far: a page's normalised URL names it. */
  private readonly addresses: Set<string>;

  constructor(
    private readonly scanUrl: string,
    declaredRules: readonly string[] | null | undefined,
    private readonly limits: ScanLimits,
    private readonly options: PreparationOptions = {},
    start: BuilderStart = { pageIndex: 0, issueCount: 0 },
  ) {
    this.declaredRules = declaredRules ? [...new Set(declaredRules)].sort() : null;
    this.pageIndex = this.firstIndex = start.pageIndex;
    this.issueCount = this.startIssues = start.issueCount;
    this.engine = start.engine ?? null;
    this.addresses = new Set(start.addresses);
  }

  /** Pages prepared by this builder. */
  get pages(): number {
    return this.pageIndex - this.firstIndex;
  }

  /** Issues prepared by this builder. */
  get issues(): number {
    return this.issueCount - this.startIssues;
  }

  /** `bodyIndex` is the page's position in the request body, for error pointers. */
  addPage(
    page: ScanPageInput,
    bodyIndex: number,
  ): PreparedPageRows | RepeatedPage | { ok: false; error: PreparationError } {
    const fail = (status: 413 | 422, pointer: string, detail: string) => ({
      ok: false as const,
      error: { status, pointer, detail },
    });
    const normalized = normalizeUrl(page.url, this.scanUrl);
    if (!normalized)
      return fail(422, `#/pages/${bodyIndex}/url`, 'must be an http(s) URL, absolute or relative to `url`');
    const viewport = page.viewport ?? null;
    // One page, one address: the same address at the same viewport again is the same page.
    const address = viewportPageKey(normalized, viewport);
    if (this.addresses.has(address)) return { ok: true, repeated: true };
    const clash = this.engineClash(page);
    if (clash) return fail(422, `#/pages/${bodyIndex}/axe/testEngine`, clash);
    const more = pageIssueCount(page);
    const over = issueLimitError(this.limits, this.issues + more, this.issueCount + more, bodyIndex);
    if (over) return { ok: false as const, error: over };
    const index = this.pageIndex++;
    this.addresses.add(address);
    const key = viewportPageKey(pageKey(normalized), viewport);
    const issues = this.prepareIssues(pageIssues(page, this.options), index, key);
    this.issueCount += issues.length;
    for (const i of issues) {
      this.summary.by_impact[i.impact ?? 'unknown']++;
      this.summary.by_kind[i.kind]++;
    }
    this.summary.issues += issues.length;
    this.summary.pages++;
    const finalUrl = page.final_url ?? engineReportedUrl(page);
    const title = replaceNul(pageTitle(page));
    this.facts.push({
      normalizedUrl: normalized,
      normalizedFinalUrl: finalUrl ? (normalizeUrl(finalUrl, normalized) ?? null) : null,
      title,
      httpStatus: page.http_status ?? null,
    });
    this.noteEngine(page);
    return {
      ok: true,
      issues,
      passes: preparePasses(page, index, key),
      page: {
        index,
        url: page.url,
        viewport,
        normalizedUrl: normalized,
        title,
        finalUrl,
        httpStatus: page.http_status ?? null,
        issueCount: issues.length,
        rulesRun: this.pageRules(page),
        rulesInapplicable: inapplicableOn(page),
      },
    };
  }

  /** The scan-wide list: the body's list and every axe page's, or null when nothing says. */
  rulesRun(): string[] | null {
    if (!this.declaredRules && !this.axeRules) return null;
    return [...new Set([...(this.declaredRules ?? []), ...(this.axeRules ?? [])])].sort();
  }

  warnings(): ScanWarning[] {
    return scanWarnings(this.facts, this.truncated, this.limits.issueHtmlBytes);
  }

  private prepareIssues(imported: ImportedIssue[], index: number, key: string): PreparedIssue[] {
    for (const issue of imported) {
      issue.message = replaceNul(issue.message);
      issue.selector = replaceNul(issue.selector);
      issue.helpUrl = replaceNul(issue.helpUrl);
      issue.html = replaceNul(issue.html);
      if (issue.html !== null) {
        const cut = truncateUtf8(issue.html, this.limits.issueHtmlBytes);
        if (cut.truncated) {
          this.truncated++;
          issue.html = cut.text;
        }
      }
      const prepared = issue as PreparedIssue;
      prepared.pageIndex = index;
      // `key` holds the viewport already (viewportPageKey): the fingerprint of the page as it was scanned.
      prepared.fingerprint = issueFingerprint({ rule: issue.rule, pageKey: key, selector: issue.selector });
    }
    return imported as PreparedIssue[];
  }

  /**
   * An axe page lists its own rules (passes, violations, incomplete, inapplicable); a native or pa11y
   * page gets the body's `rules_run`, which speaks for those pages only.
   */
  private pageRules(page: ScanPageInput): string[] | null {
    if (!page.axe) return this.declaredRules;
    const ran = new Set(rulesRunByAxe(page.axe));
    this.axeRules ??= new Set();
    for (const id of ran) this.axeRules.add(id);
    return [...ran].sort();
  }

  /**
   * One scan is judged by one engine (the gate compares it with a baseline made by the same one), so a
   * page scanned by another version of the scan's engine is refused rather than judged by the wrong one.
   */
  private engineClash(page: ScanPageInput): string | null {
    const axe = page.axe?.testEngine;
    const known = this.engine;
    if (!axe?.name || !axe.version || !known?.version || known.name !== axe.name) return null;
    if (axe.version === known.version) return null;
    return (
      `names ${axe.name} ${axe.version}, but this scan's pages were scanned with ${known.name} ` +
      `${known.version}: one scan is made by one engine version (send these pages as another scan)`
    );
  }

  private noteEngine(page: ScanPageInput): void {
    if (this.engine && this.engine.name !== 'pa11y') return;
    const axe = page.axe?.testEngine;
    if (axe?.name) this.engine = { name: axe.name, version: axe.version ?? null };
    else if (page.pa11y && !this.engine) this.engine = { name: 'pa11y', version: null };
  }
}

/** The rules that found nothing to test on a page: axe's own list, else what the page declared. */
function inapplicableOn(page: ScanPageInput): string[] | null {
  const ids = page.axe ? page.axe.inapplicable.map((r) => r.id) : page.rules_inapplicable;
  return ids ? [...new Set(ids)].sort() : null;
}
