import {
  chooseBaseline,
  chooseHeadScan,
  evaluateGate,
  resolveGateSettings,
  type BaselineChoice,
  type BaselineIssue,
  type GateEvaluation,
  type HeadIssue,
} from '../domain/gate.js';
import { newId, nowIso } from '../domain/ids.js';
import { compileWaivers, type WaiverRule } from '../domain/waiver-match.js';
import { recordEvent } from '../events/outbox.js';
import type { ApiContext } from '../context.js';
import { problems } from '../http/problem.js';
import { DeployTriggerBody, type DeployEvent, type GateIssue } from '../schemas/deploys.js';
import { DeployRepository, type DeployRecord } from '../store/deploys.js';
import { GateEvidence, type ScanDetailRow } from '../store/gate-evidence.js';
import { getSite } from '../store/sites.js';
import { WaiverRepository, type WaiverRecord } from '../store/waivers.js';

export type { DeployEvent, DeployTriggerBody };

/** How many new (and waived) issues a deploy event lists; the totals are always exact. */
export const DEPLOY_ISSUE_LIST_CAP = 100;

export type CheckRunUpdate = {
  status: 'pending' | 'completed' | 'failed' | 'skipped';
  id?: number;
  url?: string;
  error?: string;
};

/**
 * Evaluates the deploy gate for a commit and records the decision as a deploy event
 * (docs/gate.md). A failed gate is a normal result, not an error; only an unknown site is (404).
 * After the transaction commits, `deploy.completed` is emitted in-process for the GitHub App; the
 * outbox row for webhooks is written inside it.
 */
export async function triggerGate(
  ctx: ApiContext,
  org: string,
  input: DeployTriggerBody,
): Promise<DeployEvent> {
  const site = await getSite(ctx.db, org, input.siteId);
  if (!site) throw problems.notFound('site');
  const settings = resolveGateSettings(input, site.gate);
  const repository = input.repository ?? site.repository ?? null;
  const now = nowIso();
  const evidence = new GateEvidence(ctx.db);

  // Phase timings go into the log line, so a slow gate can be explained from the logs alone.
  const started = performance.now();
  const ms: Record<string, number> = {};
  let last = started;
  const lap = (phase: string) => {
    const t = performance.now();
    ms[phase] = Math.round(t - last);
    last = t;
  };
  // The store narrows the candidates in SQL; the domain rule decides (as for the baseline below).
  const latest = await evidence.latestScanForSha(org, input.siteId, input.sha);
  const headScan = chooseHeadScan(latest ? [latest] : [], input.sha);
  let baseline: BaselineChoice | null = null;
  let evaluation: GateEvaluation;
  let details = new Map<number, ScanDetailRow>();
  if (!headScan) {
    evaluation = evaluateGate({
      siteId: input.siteId,
      sha: input.sha,
      head: null,
      baseline: null,
      waivers: compileWaivers([], now),
      settings,
    });
  } else {
    const candidate = input.baseline_sha
      ? await evidence.latestScanForSha(org, input.siteId, input.baseline_sha)
      : await evidence.latestOnBranchBefore(
          org,
          input.siteId,
          site.base_branch,
          headScan.created_at,
          headScan.sha,
        );
    baseline = chooseBaseline({
      head: headScan,
      baselineSha: input.baseline_sha,
      baseBranch: site.base_branch,
      candidates: candidate ? [candidate] : [],
    });
    const waiverRules = (await new WaiverRepository(ctx.db).activeForSite(org, input.siteId, now)).map(
      waiverRule,
    );
    const waivers = compileWaivers(waiverRules, now);
    const baselineScan = baseline.scan;
    const [head, base] = await Promise.all([
      evidence.headIssues(headScan.id, [...new Set(waiverRules.map((w) => w.rule))]),
      baselineScan ? evidence.baselineIssues(baselineScan.id) : Promise.resolve<BaselineIssue[] | null>(null),
    ]);
    lap('read');
    evaluation = evaluateGate({
      siteId: input.siteId,
      sha: input.sha,
      head,
      baseline: base,
      waivers,
      settings,
      listCap: DEPLOY_ISSUE_LIST_CAP,
    });
    const refs = [...evaluation.newIssues, ...evaluation.waivedIssues.map((w) => w.issue)].map((i) =>
      Number(i.ref),
    );
    lap('evaluate');
    details = await evidence.issueDetails(headScan.id, refs);
    lap('details');
  }

  const appAttached = ctx.events.listenerCount('deploy.completed') > 0;
  const record: DeployRecord = {
    id: newId('dep'),
    org,
    siteId: input.siteId,
    sha: input.sha,
    ref: input.ref ?? null,
    repository,
    request: { ...input },
    settings: { ...settings },
    passed: evaluation.passed,
    reasons: evaluation.reasons,
    scanId: headScan?.id ?? null,
    baseline: baseline
      ? {
          scanId: baseline.scan?.id ?? null,
          sha:
            baseline.scan?.sha ??
            (baseline.strategy === 'baseline_sha' ? (input.baseline_sha ?? null) : null),
          strategy: baseline.strategy,
          reason: baseline.reason,
        }
      : null,
    counts: evaluation.counts as unknown as Record<string, unknown>,
    thresholds: evaluation.thresholds,
    newIssues: evaluation.newIssues.map((i) => issueView(i, details)),
    newIssuesTotal: evaluation.newIssuesTotal,
    waivedIssues: evaluation.waivedIssues.map((w) => ({
      ...issueView(w.issue, details),
      waiver_id: w.waiverId,
      status: w.status,
    })),
    checkRun: !repository
      ? {
          status: 'skipped',
          id: null,
          url: null,
          error: 'No repository: neither the request nor the site names one.',
        }
      : !appAttached
        ? {
            status: 'skipped',
            id: null,
            url: null,
            error: 'The GitHub App is not configured on this server.',
          }
        : { status: 'pending', id: null, url: null, error: null },
    createdAt: now,
    updatedAt: now,
  };
  const event = present(record);
  lap('present');
  await ctx.db.transaction(async (trx) => {
    await new DeployRepository(trx).insert(record);
    await recordEvent(trx, { org, type: 'deploy.completed', data: event });
  });
  ctx.logger.info(
    {
      deploy_id: record.id,
      org,
      site_id: record.siteId,
      sha: record.sha,
      passed: record.passed,
      reasons: evaluation.reasons.map((r) => r.code),
      new_issues: evaluation.newIssuesTotal,
      ms: {
        ...ms,
        store: Math.round(performance.now() - last),
        total: Math.round(performance.now() - started),
      },
    },
    'deploy gate evaluated',
  );
  try {
    ctx.events.emit('deploy.completed', { org, deployId: record.id });
  } catch (err) {
    // The decision is committed; a listener's failure (the GitHub App) must not turn it into a 500.
    ctx.logger.error({ err, deploy_id: record.id }, 'deploy.completed listener failed');
  }
  return event;
}

export async function getDeploy(ctx: ApiContext, org: string, id: string): Promise<DeployEvent | undefined> {
  const record = await new DeployRepository(ctx.db).find(org, id);
  return record ? present(record) : undefined;
}

/** Internal (no org): for the check-run publisher. */
export async function findDeploy(
  ctx: ApiContext,
  id: string,
): Promise<{ org: string; repository: string | null; event: DeployEvent } | undefined> {
  const record = await new DeployRepository(ctx.db).findAnyOrg(id);
  return record ? { org: record.org, repository: record.repository, event: present(record) } : undefined;
}

/**
 * Deploy events whose check run stayed `pending` for longer than `olderThanMs` (the process that should
 * have posted it stopped first), each claimed for this caller; the App posts them again.
 */
export async function claimStalePendingCheckRuns(
  ctx: ApiContext,
  olderThanMs: number,
  limit = 50,
): Promise<string[]> {
  const repo = new DeployRepository(ctx.db);
  const now = Date.now();
  const stale = await repo.stalePendingCheckRuns(nowIso(new Date(now - olderThanMs)), limit);
  const claimed: string[] = [];
  for (const d of stale) {
    if (await repo.claimPendingCheckRun(d.id, d.updatedAt, nowIso(new Date(now)))) claimed.push(d.id);
  }
  return claimed;
}

export async function setDeployCheckRun(ctx: ApiContext, id: string, state: CheckRunUpdate): Promise<void> {
  await new DeployRepository(ctx.db).setCheckRun(
    id,
    { status: state.status, id: state.id ?? null, url: state.url ?? null, error: state.error ?? null },
    nowIso(),
  );
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
  const record = await new DeployRepository(ctx.db).findAnyOrg(deployId);
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

function waiverRule(w: WaiverRecord): WaiverRule {
  return {
    id: w.id,
    rule: w.rule,
    selector: w.selector,
    url_pattern: w.url_pattern,
    fingerprint: w.fingerprint,
    expires_at: w.expires_at,
    revoked_at: w.revoked_at,
    created_at: w.created_at,
  };
}

function issueView(issue: HeadIssue, details: Map<number, ScanDetailRow>): GateIssue {
  const d = details.get(Number(issue.ref));
  return {
    rule: d?.rule ?? issue.rule,
    impact: d?.impact ?? issue.impact,
    kind: d?.kind ?? issue.kind,
    message: d?.message ?? null,
    selector: d?.selector ?? issue.selector,
    page_url: d?.page_url ?? issue.page.url,
    wcag: d?.wcag ? d.wcag.split(',').filter(Boolean) : [],
    help_url: d?.help_url ?? null,
    source: d?.source_path ? { path: d.source_path, line: d.source_line ?? null } : null,
    fingerprint: issue.fingerprint,
  };
}

function present(d: DeployRecord): DeployEvent {
  return {
    id: d.id,
    siteId: d.siteId,
    sha: d.sha,
    ref: d.ref,
    repository: d.repository,
    status: d.passed ? 'passed' : 'failed',
    passed: d.passed,
    reasons: d.reasons as DeployEvent['reasons'],
    scan_id: d.scanId,
    baseline: d.baseline
      ? {
          scan_id: d.baseline.scanId,
          sha: d.baseline.sha,
          strategy: d.baseline.strategy as 'baseline_sha' | 'base_branch' | 'none',
          reason: d.baseline.reason,
        }
      : null,
    settings: d.settings as DeployEvent['settings'],
    counts: d.counts as DeployEvent['counts'],
    thresholds: d.thresholds as DeployEvent['thresholds'],
    new_issues: d.newIssues as GateIssue[],
    new_issues_total: d.newIssuesTotal,
    waived_issues: d.waivedIssues as DeployEvent['waived_issues'],
    check_run: d.checkRun,
    created_at: d.createdAt,
  };
}
