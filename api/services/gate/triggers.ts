import { domainErrors } from '../../domain/errors.js';
import { resolveGateSettings, type AppliedGateSettings } from '../../../core/gate/settings.js';
import { newId, nowIso } from '../../domain/ids.js';
import { baselineRecordedReason } from '../../../core/gate/thresholds.js';
import { recordEvent } from '../../outbox/record.js';
import type { ApiContext } from '../../context.js';
import type { DeployEvent } from '../../../core/gate/deploy-event.js';
import { DeployTriggerBody } from '../../schemas/gate/deploys.js';
import {
  findDeployRecordInAnyOrg,
  findDeployRecord,
  insertDeploy,
  type DeployRecord,
} from '../../store/gate/deploys.js';
import { holdScans } from '../../store/scans/holds.js';
import { getSite, type SiteRecord } from '../../store/sites/sites.js';
import { initialCheckRun } from '../github/check-runs.js';
import { decideGate, type GateDecision } from './decision.js';
import { countsView, engineChangedView, issueView, present } from './deploy-view.js';
import type { EngineChange } from '../../../core/gate/engine.js';
import { claimsReason, type DeployClaims } from '../../../core/claims/deploy-claims.js';
import { answerClaims } from './claims.js';

/**
 * Evaluates the deploy gate for a commit and records the decision as a deploy event (docs/gate.md).
 * A failed gate is a normal result; only an unknown site is an error. The event and its outbox row
 * (`deploy.completed`: the webhooks, and the GitHub delivery that posts the check run and the comment)
 * are written in one transaction.
 */
export async function triggerGate(
  ctx: ApiContext,
  org: string,
  input: DeployTriggerBody,
): Promise<DeployEvent> {
  const site = await getSite(ctx.db, org, input.siteId);
  if (!site) throw domainErrors.notFound('site');
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    const decided = await decideAndStore(ctx, org, input, site);
    if (decided) {
      const { record, event, decision, stored } = decided;
      logDecision(ctx, record, decision, { started, stored });
      return event;
    }
    // Retention or a deletion removed a scan the decision used, after it was read: decide again
    // without it. Each round removes at least one scan, so this ends; three is beyond any real race.
    if (attempt === 3) throw new Error('the scans of the deploy decision kept being deleted');
  }
}

/**
 * Decides, then stores the event and its outbox row in one transaction, holding the scans it used;
 * undefined (nothing stored) when one of them was deleted since it was read.
 */
async function decideAndStore(ctx: ApiContext, org: string, input: DeployTriggerBody, site: SiteRecord) {
  const now = nowIso();
  const settings = resolveGateSettings(input, site.gate);
  const decision = await decideGate(ctx, org, input, site, settings, now);
  const claims = await answerClaims(ctx, input.claims, site.claims, decision);
  const stored = performance.now();
  const repository = input.repository ?? site.repository ?? null;
  const record = deployRecord(org, input, { settings, repository, now, claims }, decision);
  record.checkRun = initialCheckRun(repository, ctx.github !== undefined);
  const event = present(record);
  const written = await ctx.db.transaction(async (trx) => {
    if (!(await holdScans(trx, [record.scanId, record.baseline?.scanId ?? null]))) return false;
    await insertDeploy(trx, record);
    await recordEvent(
      trx,
      org,
      { type: 'deploy.completed', data: event },
      { publicUrl: ctx.config.publicUrl, github: record.checkRun.status === 'pending' },
    );
    return true;
  });
  return written ? { record, event, decision, stored } : undefined;
}

function logDecision(
  ctx: ApiContext,
  record: DeployRecord,
  decision: GateDecision,
  at: { started: number; stored: number },
): void {
  const { evaluation } = decision;
  ctx.logger.info(
    {
      deploy_id: record.id,
      org: record.org,
      site_id: record.siteId,
      sha: record.sha,
      passed: record.passed,
      reasons: evaluation.reasons.map((r) => r.code),
      new_issues: evaluation.newIssuesTotal,
      similar_issues: evaluation.similarIssuesTotal,
      ms: {
        ...decision.ms,
        store: Math.round(performance.now() - at.stored),
        total: Math.round(performance.now() - at.started),
      },
    },
    'deploy gate evaluated',
  );
}

function deployRecord(
  org: string,
  input: DeployTriggerBody,
  applied: {
    settings: AppliedGateSettings;
    repository: string | null;
    now: string;
    claims: DeployClaims | null;
  },
  decision: GateDecision,
): DeployRecord {
  const { evaluation, baseline, details, baselineViews } = decision;
  const view = (i: Parameters<typeof issueView>[0]) => issueView(i, details, baselineViews);
  const engineChange = engineChangeOf(decision, applied.settings);
  // Only a `strict` site fails on a claim not fixed; a `report` site shows it.
  const claimsFail = claimsReason(applied.claims);
  // Under `engine_upgrade: fail` the engine's issues are judged as new: listed there, still labelled.
  const labelled = new Set(engineChange ? evaluation.engineChangedIssues.map((i) => i.ref) : []);
  const newView = (i: Parameters<typeof issueView>[0] & { ref: number | string }) =>
    labelled.has(i.ref) ? engineChangedView(view(i)) : view(i);
  return {
    id: newId('dep'),
    org,
    siteId: input.siteId,
    sha: input.sha,
    ref: input.ref ?? null,
    repository: applied.repository,
    request: { ...input },
    settings: { ...applied.settings },
    // The base branch's first scan records the baseline: its issues are debt, not regressions.
    passed: baseline?.recorded ? true : evaluation.passed && !claimsFail,
    reasons: baseline?.recorded
      ? [baselineRecordedReason(evaluation.counts.new + evaluation.counts.existing)]
      : [...evaluation.reasons, ...(claimsFail ? [claimsFail] : [])],
    scanId: decision.headScan?.id ?? null,
    baseline: baseline && {
      scanId: baseline.scan?.id ?? null,
      sha: baseline.scan?.sha ?? (baseline.strategy === 'baseline_sha' ? (input.baseline_sha ?? null) : null),
      strategy: baseline.strategy,
      reason: baseline.reason,
    },
    coverage: decision.coverage,
    served: decision.headScan?.served ?? null,
    counts: countsView(evaluation.counts, engineChange ? evaluation.engineChange : null),
    thresholds: evaluation.thresholds,
    newIssues: evaluation.newIssues.map(newView),
    newIssuesTotal: evaluation.newIssuesTotal,
    waivedIssues: evaluation.waivedIssues.map((w) => ({
      ...view(w),
      waiver_id: w.waiverId,
      status: w.status,
    })),
    similarIssues: evaluation.similarIssues.map(view),
    similarIssuesTotal: evaluation.similarIssuesTotal,
    engineChange: engineChange && {
      ...engineChange,
      issues: evaluation.engineChangedIssues.map((i) => engineChangedView(view(i))),
    },
    claims: applied.claims,
    checkRun: { status: 'skipped', id: null, url: null, error: null },
    createdAt: applied.now,
    updatedAt: applied.now,
  };
}

/** The engine change of a decision whose baseline was made with another engine than its head; else null. */
function engineChangeOf(decision: GateDecision, settings: AppliedGateSettings): EngineChange | null {
  const change = decision.evaluation.engineChange;
  const head = decision.headScan?.engine;
  const baseline = decision.baseline?.scan?.engine;
  if (!change || !head || !baseline) return null;
  const { appeared, disappeared } = change;
  return { head, baseline, engine_upgrade: settings.engine_upgrade, appeared, disappeared };
}

export async function readDeployEvent(ctx: ApiContext, org: string, id: string): Promise<DeployEvent> {
  const record = await findDeployRecord(ctx.db, org, id);
  if (!record) throw domainErrors.notFound('deploy event');
  return present(record);
}

/**
 * Re-evaluates an earlier event's sha with that event's applied thresholds (not the site's current
 * defaults) and records a new deploy event; undefined if the event is unknown or belongs to another
 * repository (a GitHub "re-run" must not reach another repository's events).
 */
export async function rerunDeploy(
  ctx: ApiContext,
  deployId: string,
  repository: string,
): Promise<{ deployId: string } | undefined> {
  const record = await findDeployRecordInAnyOrg(ctx.db, deployId);
  if (!record?.repository || record.repository.toLowerCase() !== repository.toLowerCase()) return undefined;
  const parsed = DeployTriggerBody.safeParse({
    ...record.request,
    ...record.settings,
    repository: record.repository,
  });
  if (!parsed.success) {
    ctx.logger.warn(
      { deploy_id: deployId, issues: parsed.error.issues },
      'stored deploy request no longer valid',
    );
    return undefined;
  }
  const event = await triggerGate(ctx, record.org, parsed.data);
  return { deployId: event.id };
}
