import type { GateResult } from '../app/check-run-summary.js';

/**
 * The parts of the API's answers the action reads (DESIGN §Scans, §Deploy gate). Declared here rather than
 * imported from the API's zod schemas so the bundle never depends on server code; the process test runs
 * the bundle against the real server, which is what keeps the two in step.
 */

/** `201` of `POST /api/v1/scans`. */
export interface ScanCreated {
  id: string;
  siteId: string;
  url: string;
  sha?: string | null;
  branch?: string | null;
  summary?: { pages: number; issues: number; by_impact?: Record<string, number> };
  warnings?: (string | { code?: string; message?: string })[];
}

/** `201` of `POST /api/v1/deploy/trigger`: the deploy event. */
export interface DeployEvent extends GateResult {
  status?: 'passed' | 'failed';
  check_run?: { status: string; id?: string | number | null; url?: string | null } | null;
  created_at?: string;
}

/** The body of `POST /api/v1/deploy/trigger` the action sends. */
export interface TriggerRequest {
  siteId: string;
  sha: string;
  fail_on_critical: boolean;
  fail_on_serious?: boolean;
  max_total?: number;
  repository?: string;
  ref?: string;
}

export interface NativeIssue {
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
export interface ScanPage {
  url: string;
  title?: string;
  final_url?: string;
  http_status?: number;
  issues?: NativeIssue[];
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
  pages: ScanPage[];
}
