import type { DeployClaims } from '../claims/deploy-claims.js';
import type { CheckRunStatus } from '../github/check-run.js';
import type { Impact, IssueKind } from '../impact.js';
import type { IssueSource } from '../scans/imported-issue.js';
import type { MatchKind } from '../matching/matcher.js';
import type { BaselineStrategy } from './baseline.js';
import type { PageCoverage } from './coverage.js';
import type { ServedFolderRef } from './served-folder.js';
import type { EngineChange } from './engine.js';
import type { AppliedGateSettings } from './settings.js';
import type { CategoryCounts, GateReason, ThresholdResult } from './thresholds.js';

/**
 * A deploy event: the gate's decision on one commit as the API answers it, stores it and renders it. The
 * domain's one definition; the API's zod schema (api/schemas/gate/deploys.ts) is checked against it.
 */

export interface BaselineIssueRef {
  fingerprint: string;
  selector: string | null;
  page_url: string;
}

/** One issue a deploy event lists. */
export interface GateIssue {
  rule: string;
  impact: Impact | null;
  kind: IssueKind;
  message: string | null;
  selector: string | null;
  page_url: string;
  /** The viewport the page was scanned at (`390x844`, `iPhone 13`); absent when the scan named none. */
  viewport?: string;
  wcag: string[];
  help_url: string | null;
  /** The element's markup, cut to a snippet (events stored before it was listed have none). */
  html?: string | null;
  source: IssueSource | null;
  fingerprint: string;
  match: MatchKind;
  baseline_issue: BaselineIssueRef | null;
  similarity: number | null;
  evidence: string | null;
  /** Present (true) on an issue that differs only because the engine changed (engine.ts). */
  engine_change?: true;
}

export interface WaivedGateIssue extends GateIssue {
  waiver_id: string;
  status: 'new' | 'existing';
}

export interface DeployBaseline {
  scan_id: string | null;
  sha: string | null;
  strategy: BaselineStrategy;
  reason: string;
}

/** One impact's counts; under an engine change also its issues that differ because of it (both sides). */
export interface ImpactCounts extends CategoryCounts {
  engine_changed?: number;
}

export interface DeployCounts extends CategoryCounts {
  /** Issues that differ because the engine changed (both sides), counted apart from new and fixed. */
  engine_changed?: number;
  by_impact: Record<Impact, ImpactCounts> & { unknown?: ImpactCounts };
}

export interface DeployCheckRun {
  status: CheckRunStatus;
  id: number | null;
  url: string | null;
  error: string | null;
}

export interface DeployEvent {
  id: string;
  siteId: string;
  sha: string;
  ref: string | null;
  repository: string | null;
  status: 'passed' | 'failed';
  passed: boolean;
  reasons: GateReason[];
  scan_id: string | null;
  baseline: DeployBaseline | null;
  /** A partial head scan: the pages compared, out of how many; null when the head scan is full. */
  coverage: PageCoverage | null;
  /** The head scan was of a built folder the CLI served (`--serve`); else null. */
  served: ServedFolderRef | null;
  settings: AppliedGateSettings;
  counts: DeployCounts;
  thresholds: ThresholdResult[];
  new_issues: GateIssue[];
  new_issues_total: number;
  waived_issues: WaivedGateIssue[];
  similar_issues: GateIssue[];
  similar_issues_total: number;
  /** The baseline was made with another engine: both engines and the policy applied; else null. */
  engine_change: EngineChange | null;
  /** The head issues that differ because the engine changed (at most 100), each `engine_change: true`. */
  engine_changed_issues: GateIssue[];
  /** The fixes the change claimed and the gate's answer to each; null when it claimed none. */
  claims: DeployClaims | null;
  check_run: DeployCheckRun;
  created_at: string;
}

/** The parts of a deploy event that its reports (check run, job summary) show. */
export type GateResult = Pick<
  DeployEvent,
  | 'id'
  | 'siteId'
  | 'sha'
  | 'passed'
  | 'reasons'
  | 'scan_id'
  | 'baseline'
  | 'counts'
  | 'thresholds'
  | 'new_issues'
  | 'new_issues_total'
> &
  // The repository links a located issue to its file at the commit; results built without one show the path.
  Partial<
    Pick<
      DeployEvent,
      'repository' | 'engine_change' | 'engine_changed_issues' | 'coverage' | 'served' | 'claims'
    >
  >;
