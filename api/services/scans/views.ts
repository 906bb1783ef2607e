import type { ScanIssueRecord, ScanPageRecord, ScanRecord } from '../../store/scans/scans.js';
import { presentCreatedScan } from './scans.js';

/** How the scans endpoints show a scan, its pages and its issues. */

export function presentScanListItem(s: ScanRecord) {
  return {
    ...presentCreatedScan(s),
    engine: s.engine,
    run_attempt: s.runAttempt,
    scope: s.scope,
    fingerprint_version: s.fingerprintVersion,
  };
}

export function presentScanIssue(i: ScanIssueRecord, pageUrl: string, waiverId: string | null) {
  return {
    page_index: i.pageIndex,
    page_url: pageUrl,
    rule: i.rule,
    impact: i.impact,
    kind: i.kind,
    message: i.message,
    selector: i.selector,
    html: i.html,
    wcag: i.wcag,
    help_url: i.helpUrl,
    source: i.source,
    fingerprint: i.fingerprint,
    waiver_id: waiverId,
  };
}

/** The API's page: the record's fields in their snake_case names and in this order. */
export function presentScanPage(p: ScanPageRecord) {
  return {
    index: p.index,
    url: p.url,
    viewport: p.viewport,
    normalized_url: p.normalizedUrl,
    title: p.title,
    final_url: p.finalUrl,
    http_status: p.httpStatus,
    issue_count: p.issueCount,
  };
}
