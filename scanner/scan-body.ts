import type { ScreenshotToSend } from '../client/screenshots.js';
import { forSubmission } from './axe.js';
import type { ScannedPage } from './page-scan.js';
import type { ScanRun } from './scan.js';

/** A page of the service's scan body (`POST /api/v1/scans`), axe form. */
export interface SubmittedPage {
  url: string;
  viewport?: string;
  title?: string;
  final_url?: string;
  http_status?: number;
  axe: Record<string, unknown>;
}

/**
 * The scanned pages as the service's axe import takes them: the axe result with its engine version, and of
 * passes and inapplicable only the rule ids (the rules that ran on that page). A failed page is not sent:
 * it was not tested, and sent without findings it would count as clean. Each face reports it instead.
 */
export function submittedPages(run: ScanRun): SubmittedPage[] {
  return run.pages
    .filter((p): p is ScannedPage => p.ok)
    .map((p) => ({
      url: p.url,
      ...(p.viewport ? { viewport: p.viewport } : {}),
      ...(p.title ? { title: p.title } : {}),
      final_url: p.finalUrl,
      ...(p.status !== null ? { http_status: p.status } : {}),
      axe: forSubmission(p.axe),
    }));
}

/** The pictures of the scanned pages' violations, each named by its page as submitted (`url`, `viewport`). */
export function screenshotsToSend(run: ScanRun): ScreenshotToSend[] {
  return run.pages
    .filter((p): p is ScannedPage => p.ok)
    .flatMap((p) =>
      p.screenshots.map((s) => ({
        pageUrl: p.url,
        ...(p.viewport ? { viewport: p.viewport } : {}),
        rule: s.rule,
        selector: s.selector,
        png: s.png,
      })),
    );
}
