import type { ImportedIssue } from '../../../core/scans/imported-issue.js';

export interface ScanSummary {
  pages: number;
  issues: number;
  by_impact: { critical: number; serious: number; moderate: number; minor: number; unknown: number };
  by_kind: { violation: number; incomplete: number };
}

export type ScanWarningCode =
  'no_pages' | 'http_error_pages' | 'shared_final_url' | 'shared_title' | 'html_truncated';

export interface ScanWarning {
  code: ScanWarningCode;
  message: string;
  count: number;
}

/** What the warnings look at for each page. */
export interface PageFacts {
  normalizedUrl: string;
  /** Normalised final URL, when the client gave one. */
  normalizedFinalUrl: string | null;
  title: string | null;
  httpStatus: number | null;
}

export function emptySummary(): ScanSummary {
  return {
    pages: 0,
    issues: 0,
    by_impact: { critical: 0, serious: 0, moderate: 0, minor: 0, unknown: 0 },
    by_kind: { violation: 0, incomplete: 0 },
  };
}

/** The counts of two parts of one scan together. */
export function addSummaries(a: ScanSummary, b: ScanSummary): ScanSummary {
  const s = emptySummary();
  s.pages = a.pages + b.pages;
  s.issues = a.issues + b.issues;
  for (const k of Object.keys(s.by_impact) as Array<keyof ScanSummary['by_impact']>) {
    s.by_impact[k] = a.by_impact[k] + b.by_impact[k];
  }
  for (const k of Object.keys(s.by_kind) as Array<keyof ScanSummary['by_kind']>) {
    s.by_kind[k] = a.by_kind[k] + b.by_kind[k];
  }
  return s;
}

export function summarize(
  pageCount: number,
  issues: Iterable<Pick<ImportedIssue, 'impact' | 'kind'>>,
): ScanSummary {
  const s = emptySummary();
  s.pages = pageCount;
  for (const i of issues) {
    s.issues++;
    s.by_impact[i.impact ?? 'unknown']++;
    s.by_kind[i.kind]++;
  }
  return s;
}

/**
 * A group of pages sharing one value is suspicious (the login-page trap: every URL redirected to the
 * sign-in page, which has no issues) when at least 3 pages with different URLs share it and they are
 * more than half of the scan's different URLs (a URL scanned at several viewports counts once).
 */
const SHARED_MIN_PAGES = 3;

function largestSharedGroup(pages: PageFacts[], valueOf: (p: PageFacts) => string | null) {
  const groups = new Map<string, Set<string>>();
  for (const p of pages) {
    const v = valueOf(p);
    if (!v) continue;
    let urls = groups.get(v);
    if (!urls) groups.set(v, (urls = new Set()));
    urls.add(p.normalizedUrl);
  }
  let best: { value: string; count: number } | undefined;
  for (const [value, urls] of groups) {
    if (!best || urls.size > best.count) best = { value, count: urls.size };
  }
  const urls = new Set(pages.map((p) => p.normalizedUrl)).size;
  if (best && best.count >= SHARED_MIN_PAGES && best.count > urls / 2) return { ...best, of: urls };
  return undefined;
}

function withoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

export function scanWarnings(
  pages: PageFacts[],
  truncatedHtml: number,
  htmlLimitBytes: number,
): ScanWarning[] {
  const warnings: ScanWarning[] = [];
  if (pages.length === 0) {
    warnings.push({
      code: 'no_pages',
      message: 'The scan has no pages: nothing was tested, so it proves nothing about accessibility.',
      count: 0,
    });
  }
  const failed = pages.filter((p) => p.httpStatus !== null && p.httpStatus >= 400).length;
  if (failed > 0) {
    warnings.push({
      code: 'http_error_pages',
      message: `${failed} of ${pages.length} pages answered with an HTTP error status (≥ 400): their results describe an error page.`,
      count: failed,
    });
  }
  // Compared without the query: a login page says where to return (`/login?next=/cart`), so every
  // redirected page ends at a different URL of the same login page.
  const sharedFinal = largestSharedGroup(pages, (p) =>
    p.normalizedFinalUrl && p.normalizedFinalUrl !== p.normalizedUrl
      ? withoutQuery(p.normalizedFinalUrl)
      : null,
  );
  if (sharedFinal) {
    warnings.push({
      code: 'shared_final_url',
      message:
        `${sharedFinal.count} of ${sharedFinal.of} pages ended at the same URL (${sharedFinal.value}): ` +
        'the scanner was probably redirected to a login or error page.',
      count: sharedFinal.count,
    });
  }
  const sharedTitle = largestSharedGroup(pages, (p) => p.title?.trim() || null);
  if (sharedTitle) {
    warnings.push({
      code: 'shared_title',
      message:
        `${sharedTitle.count} of ${sharedTitle.of} different pages have the same title ("${sharedTitle.value}"): ` +
        'check that the scanner saw the real pages and not a login or error page.',
      count: sharedTitle.count,
    });
  }
  if (truncatedHtml > 0) {
    warnings.push({
      code: 'html_truncated',
      message: `${truncatedHtml} issues had \`html\` longer than ${htmlLimitBytes} bytes; it was truncated.`,
      count: truncatedHtml,
    });
  }
  return warnings;
}

/** A scan's counts without one part's (a shard sent again takes its earlier pages back out). */
export function subtractSummary(a: ScanSummary, b: ScanSummary): ScanSummary {
  const s = emptySummary();
  s.pages = a.pages - b.pages;
  s.issues = a.issues - b.issues;
  for (const k of Object.keys(s.by_impact) as Array<keyof ScanSummary['by_impact']>) {
    s.by_impact[k] = a.by_impact[k] - b.by_impact[k];
  }
  for (const k of Object.keys(s.by_kind) as Array<keyof ScanSummary['by_kind']>) {
    s.by_kind[k] = a.by_kind[k] - b.by_kind[k];
  }
  return s;
}
