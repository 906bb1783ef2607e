import type { ScreenshotToSend } from '../client/screenshots.js';
import type { AxeResults } from 'axe-core';
import { axeTargetToSelector } from '../core/scans/axe-target.js';
import { MAX_PASSES_PER_PAGE, PASS_HTML_BYTES } from '../core/claims/passes.js';
import { TEXT_RULES } from '../core/claims/verification.js';
import { truncateUtf8 } from '../core/text/truncation.js';
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
  passes?: PassingElement[];
}

/** An element a rule passed on, as the service keeps it for claimed fixes (docs/scans.md). */
export interface PassingElement {
  rule: string;
  selector: string;
  html: string;
}

/**
 * The passing elements of the rules whose fixes may be claimed: every text rule (a claimed fix of one is
 * shown to a person with its new text) and the rules of `claimedRules` (verified rather than removed). A
 * scan made without `keepPasses` has none to send. A page with more than the service takes sends none: without
 * them a text rule's claim goes to a person, where a cut list would call an element past the cut removed.
 */
export function passesToSend(result: AxeResults, claimedRules: ReadonlySet<string>): PassingElement[] {
  const passes = result.passes
    .filter((r) => TEXT_RULES.has(r.id) || claimedRules.has(r.id))
    .flatMap((r) =>
      r.nodes.map((n) => ({
        rule: r.id,
        selector: axeTargetToSelector(n.target as string[]),
        html: truncateUtf8(n.html, PASS_HTML_BYTES).text,
      })),
    );
  return passes.length > MAX_PASSES_PER_PAGE ? [] : passes;
}

/**
 * The scanned pages as the service's axe import takes them: the axe result with its engine version, and of
 * passes and inapplicable only the rule ids (the rules that ran on that page). A failed page is not sent:
 * it was not tested, and sent without findings it would count as clean. Each face reports it instead.
 */
export function submittedPages(
  run: ScanRun,
  /** A scan made with `keepPasses`: the claimed issues' rules, whose passing elements are sent too. */
  passesOf: ReadonlySet<string> | null = null,
): SubmittedPage[] {
  return run.pages
    .filter((p): p is ScannedPage => p.ok)
    .map((p) => ({
      url: p.url,
      ...(p.viewport ? { viewport: p.viewport } : {}),
      ...(p.title ? { title: p.title } : {}),
      final_url: p.finalUrl,
      ...(p.status !== null ? { http_status: p.status } : {}),
      axe: forSubmission(p.axe),
      ...(passesOf ? { passes: passesToSend(p.axe, passesOf) } : {}),
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
