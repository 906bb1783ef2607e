import { type CreatedScan } from '../api/schemas/scans/output.js';
import type { DeployTriggerBody } from '../api/schemas/gate/deploys.js';
import type { ScreenshotUpload, StoredScreenshots } from '../api/schemas/scans/screenshots.js';
import type { z } from '../api/schemas/zod.js';

/**
 * The API's answers and request bodies as the action sees them. Types only (`import type`): the bundle
 * never contains server code, yet a change to the API's zod schemas that breaks the action breaks the
 * typecheck, and the process test runs the bundle against the real server.
 */

/** `201` of `POST /api/v1/scans`. */
export type ScanCreated = z.infer<typeof CreatedScan>;

/** The body of `POST /api/v1/deploy/trigger`. */
export type TriggerRequest = z.input<typeof DeployTriggerBody>;

/**
 * What the action builds into a scan body. Looser than the API's input schema on purpose: pages of a native
 * body and raw axe/pa11y results are passed through, and the service validates them (422 with pointers).
 */
export interface ScanBodyIssue {
  rule: string;
  impact?: 'critical' | 'serious' | 'moderate' | 'minor';
  kind?: 'violation' | 'incomplete';
  message?: string;
  selector?: string;
  html?: string;
  wcag?: string[];
  help_url?: string;
  source?: { path: string; line?: number };
}

/** One page of a scan body: native `issues`, the axe-core result under `axe`, or pa11y's issues under `pa11y`. */
export interface ScanBodyPage {
  url: string;
  /** The viewport the page was scanned at, when one was named (part of its issues' identity). */
  viewport?: string;
  title?: string;
  final_url?: string;
  http_status?: number;
  issues?: ScanBodyIssue[];
  axe?: unknown;
  pa11y?: unknown;
}

/** The body of `POST /api/v1/scans` the action sends. */
export interface ScanRequest {
  url: string;
  siteId: string;
  sha: string;
  branch?: string;
  engine?: { name: string; version?: string };
  run_attempt?: number;
  /** Sent only as `partial`: a scan of some pages only (the service's default is `full`). */
  scope?: 'partial';
  /** The built folder the CLI served for the scan (`--serve`), as the command names it. */
  served?: { dir: string; spa: boolean };
  pages: ScanBodyPage[];
}

/** The body of `POST /api/v1/scans/{id}/screenshots` and its answer. */
export type ScreenshotRequest = z.input<typeof ScreenshotUpload>;
export type ScreenshotsStored = z.infer<typeof StoredScreenshots>;
