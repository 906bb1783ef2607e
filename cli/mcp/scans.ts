/**
 * The scans of one MCP session: each scan the agent ran, remembered with how it was made, so a later
 * `verify` rescans the same pages the same way and answers per claimed fingerprint (core/claims).
 */
import path from 'node:path';
import type { ScannedElement } from '../../core/claims/verification.js';
import { sourceText } from '../../core/gate/finding-text.js';
import { viewportPageKey } from '../../core/matching/fingerprint.js';
import { normalizeUrl, pageKey } from '../../core/url-normalisation.js';
import { axeFindings, findingsOf, type Finding } from '../../scanner/findings.js';
import { defaultScanOptions, type ScanOptions } from '../../scanner/options.js';
import type { PageOutcome, ScannedPage } from '../../scanner/page-scan.js';
import { fingerprintOf } from '../../scanner/sarif.js';
import { scan, type ScanRun } from '../../scanner/scan.js';
import { parseViewports } from '../../scanner/viewports.js';
import { picturesWhereShown } from '../../scanner/screenshots.js';

/** What the agent asks to scan. */
export interface ScanTarget {
  urls: string[];
  /** A built folder served on loopback for the scan; `urls` are then its paths (`/`, `/about.html`). */
  serve: string | null;
  viewports: string[];
  /** The repository's folder, to locate findings as `path:line` (default: the served folder). */
  sourceRoot: string | null;
}

/** One finding as the tools answer it. */
export interface McpFinding {
  fingerprint: string;
  rule: string;
  impact: string | null;
  page_url: string;
  viewport: string | null;
  selector: string;
  html: string;
  summary: string;
  location: string | null;
}

export interface RememberedScan {
  target: ScanTarget;
  findings: Finding[];
  elements: ScannedElement[];
}

export class ScanError extends Error {}

const pageOf = (f: Finding) => viewportPageKey(pageKey(normalizeUrl(f.pageUrl) ?? f.pageUrl), f.viewport);

function element(f: Finding): ScannedElement {
  return { fingerprint: fingerprintOf(f), rule: f.rule, page: pageOf(f), selector: f.selector, html: f.html };
}

export function mcpFinding(f: Finding): McpFinding {
  return {
    fingerprint: fingerprintOf(f),
    rule: f.rule,
    impact: f.impact,
    page_url: f.pageUrl,
    viewport: f.viewport ?? null,
    selector: f.selector,
    html: f.html,
    summary: f.help,
    location: sourceText(f),
  };
}

/** The violations of the scanned pages, and every passing element (a scan that kept them). */
export function elementsOf(pages: PageOutcome[]): { violations: ScannedElement[]; passes: ScannedElement[] } {
  const scanned = pages.filter((p): p is ScannedPage => p.ok);
  return {
    violations: findingsOf(pages)
      .filter((f) => f.kind === 'violation')
      .map(element),
    passes: scanned.flatMap((p) =>
      axeFindings(p.url, { violations: p.axe.passes, incomplete: [] }, p.viewport).map(element),
    ),
  };
}

/** Scan options for a target: no pictures (nothing shows them), the browser from `chromePath` or the environment. */
function optionsFor(target: ScanTarget, chromePath: string | null, keepPasses: boolean): ScanOptions {
  const base = defaultScanOptions();
  const serveDir = target.serve ? path.resolve(target.serve) : null;
  const sourceRoot = target.sourceRoot ? path.resolve(target.sourceRoot) : serveDir;
  return {
    ...base,
    urls: target.urls.length > 0 || !serveDir ? target.urls : ['/'],
    serve: serveDir ? { dir: serveDir, spa: false } : null,
    chromePath,
    viewports: parseViewports(target.viewports, (problem) => new ScanError(problem)),
    sourceRoot,
    screenshots: picturesWhereShown(base.screenshots, { service: false, report: false }),
    concurrency: Math.min(base.concurrency, 2),
    keepPasses,
  };
}

/** Where a page is asked for again: its path on a served folder (served on another port each time). */
export function pageAgain(target: ScanTarget, pageUrl: string): string {
  if (!target.serve) return pageUrl;
  const u = new URL(pageUrl);
  return u.pathname + u.search;
}

export async function runScan(
  target: ScanTarget,
  chromePath: string | null,
  keepPasses = false,
): Promise<ScanRun> {
  if (target.urls.length === 0 && !target.serve) throw new ScanError('give urls, or a folder to serve');
  return scan(optionsFor(target, chromePath, keepPasses));
}

/** Remembers scans by the fingerprints of their findings: the latest scan holding one answers for it. */
export class ScanMemory {
  private readonly byFingerprint = new Map<string, RememberedScan>();

  remember(target: ScanTarget, run: ScanRun): Finding[] {
    const findings = findingsOf(run.pages).filter((f) => f.kind === 'violation');
    const scanMemo: RememberedScan = { target, findings, elements: findings.map(element) };
    for (const e of scanMemo.elements) this.byFingerprint.set(e.fingerprint, scanMemo);
    return findings;
  }

  scanOf(fingerprint: string): RememberedScan | undefined {
    return this.byFingerprint.get(fingerprint);
  }

  finding(fingerprint: string): Finding | undefined {
    return this.scanOf(fingerprint)?.findings.find((f) => fingerprintOf(f) === fingerprint);
  }
}
