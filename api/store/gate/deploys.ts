import type { Knex } from 'knex';
import type { BaselineStrategy } from '../../../core/gate/baseline.js';
import type {
  DeployCheckRun,
  DeployCounts,
  GateIssue,
  WaivedGateIssue,
} from '../../../core/gate/deploy-event.js';
import type { ServedFolderRef } from '../../../core/gate/served-folder.js';
import type { EngineChange } from '../../../core/gate/engine.js';
import type { PageCoverage } from '../../../core/gate/coverage.js';
import type { AppliedGateSettings } from '../../../core/gate/settings.js';
import type { GateReason, ThresholdResult } from '../../../core/gate/thresholds.js';
import type { CheckRunStatus } from '../../../core/github/check-run.js';
import { isNulFree } from '../../../core/text/truncation.js';
import type { ClaimPolicy, DeployClaims } from '../../../core/claims/deploy-claims.js';
import { insertDeployClaims, readDeployClaims } from './claims.js';

type MatchField = 'match' | 'baseline_issue' | 'similarity' | 'evidence';

/** A listed issue as stored: events recorded before issues carried their match lack the match fields. */
export type StoredGateIssue = Omit<GateIssue, MatchField> & Partial<Pick<GateIssue, MatchField>>;
export type StoredWaivedIssue = StoredGateIssue & Pick<WaivedGateIssue, 'waiver_id' | 'status'>;

export type StoredEngineChange = EngineChange & { issues: StoredGateIssue[] };

/** One deploy event as stored: scalar columns plus the lists it showed, as JSON (a record, not a view). */
export interface DeployRecord {
  id: string;
  org: string;
  siteId: string;
  sha: string;
  ref: string | null;
  repository: string | null;
  /** The validated trigger request, so a re-run can repeat it. */
  request: Record<string, unknown>;
  /** The thresholds applied after the site and built-in defaults. */
  settings: AppliedGateSettings;
  passed: boolean;
  reasons: GateReason[];
  scanId: string | null;
  baseline: { scanId: string | null; sha: string | null; strategy: BaselineStrategy; reason: string } | null;
  /** A partial head scan's pages compared; null for a full one (and every event recorded before). */
  coverage: PageCoverage | null;
  /** The head scan's served folder (`--serve`); null otherwise (and for every event recorded before). */
  served: ServedFolderRef | null;
  counts: DeployCounts;
  thresholds: ThresholdResult[];
  newIssues: StoredGateIssue[];
  newIssuesTotal: number;
  waivedIssues: StoredWaivedIssue[];
  /** Existing issues paired by similarity, as listed (capped), and their exact number. */
  similarIssues: StoredGateIssue[];
  similarIssuesTotal: number;
  /** The engine change and the head issues it labelled (capped); null when the engines were the same. */
  engineChange: StoredEngineChange | null;
  /** The claimed fixes and their answers (deploy_claims); null when the change claimed none. */
  claims: DeployClaims | null;
  checkRun: DeployCheckRun;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  org: string;
  site_id: string;
  sha: string;
  ref: string | null;
  repository: string | null;
  request: string;
  settings: string;
  passed: boolean | number;
  reasons: string;
  scan_id: string | null;
  baseline_scan_id: string | null;
  baseline_sha: string | null;
  baseline_strategy: BaselineStrategy | null;
  baseline_reason: string | null;
  coverage: string | null;
  served: string | null;
  counts: string;
  thresholds: string;
  new_issues: string;
  new_issues_total: number;
  waived_issues: string;
  similar_issues: string;
  similar_issues_total: number;
  engine_change: string | null;
  claims_policy: ClaimPolicy | null;
  check_run_status: CheckRunStatus;
  check_run_id: number | string | null;
  check_run_url: string | null;
  check_run_error: string | null;
  created_at: string;
  updated_at: string;
}

function toRow(d: DeployRecord): Row {
  return {
    id: d.id,
    org: d.org,
    site_id: d.siteId,
    sha: d.sha,
    ref: d.ref,
    repository: d.repository,
    request: JSON.stringify(d.request),
    settings: JSON.stringify(d.settings),
    passed: d.passed,
    reasons: JSON.stringify(d.reasons),
    scan_id: d.scanId,
    baseline_scan_id: d.baseline?.scanId ?? null,
    baseline_sha: d.baseline?.sha ?? null,
    baseline_strategy: d.baseline?.strategy ?? null,
    baseline_reason: d.baseline?.reason ?? null,
    coverage: d.coverage ? JSON.stringify(d.coverage) : null,
    served: d.served ? JSON.stringify(d.served) : null,
    counts: JSON.stringify(d.counts),
    thresholds: JSON.stringify(d.thresholds),
    new_issues: JSON.stringify(d.newIssues),
    new_issues_total: d.newIssuesTotal,
    waived_issues: JSON.stringify(d.waivedIssues),
    similar_issues: JSON.stringify(d.similarIssues),
    similar_issues_total: d.similarIssuesTotal,
    engine_change: d.engineChange ? JSON.stringify(d.engineChange) : null,
    claims_policy: d.claims?.items.length ? d.claims.policy : null,
    check_run_status: d.checkRun.status,
    check_run_id: d.checkRun.id,
    check_run_url: d.checkRun.url,
    check_run_error: d.checkRun.error,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}

/** A JSON column this file wrote from the record's own field (toRow), read back with that field's type. */
function parsed<T>(text: string): T {
  return JSON.parse(text) as T;
}

function fromRow(r: Row): DeployRecord {
  return {
    id: r.id,
    org: r.org,
    siteId: r.site_id,
    sha: r.sha,
    ref: r.ref,
    repository: r.repository,
    request: parsed(r.request),
    settings: parsed(r.settings),
    // SQLite answers 0/1.
    passed: Boolean(r.passed),
    reasons: parsed(r.reasons),
    scanId: r.scan_id,
    baseline: r.baseline_strategy
      ? {
          scanId: r.baseline_scan_id,
          sha: r.baseline_sha,
          strategy: r.baseline_strategy,
          reason: r.baseline_reason ?? '',
        }
      : null,
    coverage: r.coverage ? parsed(r.coverage) : null,
    served: r.served ? parsed(r.served) : null,
    counts: parsed(r.counts),
    thresholds: parsed(r.thresholds),
    newIssues: parsed(r.new_issues),
    newIssuesTotal: r.new_issues_total,
    waivedIssues: parsed(r.waived_issues),
    similarIssues: parsed(r.similar_issues),
    similarIssuesTotal: Number(r.similar_issues_total),
    engineChange: r.engine_change ? parsed(r.engine_change) : null,
    claims: null,
    checkRun: checkRunOf(r),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function insertDeploy(db: Knex | Knex.Transaction, d: DeployRecord): Promise<void> {
  await db('deploys').insert(toRow(d));
  await insertDeployClaims(
    db,
    { deployId: d.id, org: d.org, siteId: d.siteId, createdAt: d.createdAt },
    d.claims,
  );
}

/** The record of a row, with its claims (a second, small read, only when it has any). */
async function recordOf(db: Knex, row: Row | undefined): Promise<DeployRecord | undefined> {
  if (!row) return undefined;
  return { ...fromRow(row), claims: await readDeployClaims(db, row.id, row.claims_policy) };
}

export async function findDeployRecord(db: Knex, org: string, id: string): Promise<DeployRecord | undefined> {
  // No id holds U+0000, and PostgreSQL refuses it in a query (an error, not "no row").
  if (!isNulFree(id)) return undefined;
  return recordOf(db, (await db('deploys').where({ org, id }).first()) as Row | undefined);
}

/**
 * What of a stored deploy event can still change (only its check run) and when it last did, as one
 * string: equal for two reads exactly when nothing of the event changed in between.
 */
export function deployVersion(d: Pick<DeployRecord, 'updatedAt' | 'checkRun'>): string {
  const c = d.checkRun;
  return JSON.stringify([d.updatedAt, c.status, c.id, c.url, c.error]);
}

type CheckRunColumns = Pick<Row, 'check_run_status' | 'check_run_id' | 'check_run_url' | 'check_run_error'>;

/** The check run's columns as the record's `checkRun`. */
function checkRunOf(r: CheckRunColumns): DeployCheckRun {
  return {
    status: r.check_run_status,
    id: r.check_run_id === null ? null : Number(r.check_run_id),
    url: r.check_run_url,
    error: r.check_run_error,
  };
}

/** The stored event's version (deployVersion) read alone, one small row; undefined when there is none. */
export async function findDeployVersion(db: Knex, org: string, id: string): Promise<string | undefined> {
  if (!isNulFree(id)) return undefined;
  const row = await db('deploys')
    .where({ org, id })
    .first<
      | Pick<Row, 'updated_at' | 'check_run_status' | 'check_run_id' | 'check_run_url' | 'check_run_error'>
      | undefined
    >('updated_at', 'check_run_status', 'check_run_id', 'check_run_url', 'check_run_error');
  if (!row) return undefined;
  return deployVersion({
    updatedAt: row.updated_at,
    checkRun: checkRunOf(row),
  });
}

/** Without an org: for the check-run publisher and re-runs, which start from a GitHub event. */
export async function findDeployRecordInAnyOrg(db: Knex, id: string): Promise<DeployRecord | undefined> {
  if (!isNulFree(id)) return undefined;
  return recordOf(db, (await db('deploys').where({ id }).first()) as Row | undefined);
}

export async function setCheckRun(
  db: Knex,
  id: string,
  state: DeployRecord['checkRun'],
  at: string,
): Promise<boolean> {
  const n = await db('deploys').where({ id }).update({
    check_run_status: state.status,
    check_run_id: state.id,
    check_run_url: state.url,
    check_run_error: state.error,
    updated_at: at,
  });
  return n === 1;
}

/**
 * What a deploy event's GitHub delivery needs of the stored event beyond its outbox row: the check run
 * recorded so far and the trigger's pull request. One small row; undefined when the event is gone.
 */
export async function readCheckRunTarget(
  db: Knex,
  org: string,
  id: string,
): Promise<{ checkRun: DeployCheckRun; request: Record<string, unknown> } | undefined> {
  const row = await db('deploys')
    .where({ org, id })
    .first<
      | Pick<Row, 'request' | 'check_run_status' | 'check_run_id' | 'check_run_url' | 'check_run_error'>
      | undefined
    >('request', 'check_run_status', 'check_run_id', 'check_run_url', 'check_run_error');
  if (!row) return undefined;
  return {
    request: parsed(row.request),
    checkRun: checkRunOf(row),
  };
}
