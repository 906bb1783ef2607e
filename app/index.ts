import type { Probot } from 'probot';
import { CHECK_NAME_PREFIX } from './check-run-payload.js';
import { handleCompletedRun, type ForkFlow } from './fork-runs.js';
import { answerMergeGroup, type MergeGroupSites } from './merge-group.js';

/**
 * Re-runs the gate of an earlier deploy event with that event's own request (same sha, same thresholds).
 * The new deploy event is published as a new check run like any other. Answers undefined when the deploy
 * event is unknown or belongs to another repository.
 */
export type RerunGate = (deployId: string, repository: string) => Promise<{ deployId: string } | undefined>;

export interface AppOptions {
  rerun: RerunGate;
  /** Gates pull requests from forks from their workflow run's artifact (app/fork-runs.ts). */
  forks?: ForkFlow;
  /** The sites bound to a repository and whether their workflow scans merge groups. */
  mergeGroupSites?: MergeGroupSites;
  /** Deadline of each GitHub request the handlers make. */
  timeoutMs?: number;
}

/**
 * The Probot app function: it only wires GitHub events to small handlers. Check runs and comments are
 * posted by the publisher (check-run-publisher.ts), which the outbox worker runs for each decision's
 * GitHub delivery (see server/host.ts).
 */
export function createAppFunction(options: AppOptions) {
  return (app: Probot) => {
    app.on('installation', (context) => {
      const { action, installation } = context.payload;
      context.log.info(
        { action, installation: installation.id, account: accountName(installation.account) },
        'installation event',
      );
    });

    // A pull request's workflow run without an API key (a fork's) left its scan as an artifact.
    const forks = options.forks;
    if (forks) app.on('workflow_run.completed', (context) => handleCompletedRun(context, forks));
    // A merge queue waits for the required checks on its merge-group commit: never leave ours missing.
    app.on('merge_group.checks_requested', async (context) => {
      const { merge_group: group, installation } = context.payload;
      if (!options.mergeGroupSites || !installation) return;
      const answered = await answerMergeGroup(
        context.octokit,
        {
          ...context.repo(),
          installationId: installation.id,
          headSha: group.head_sha,
          baseRef: group.base_ref,
        },
        options.mergeGroupSites,
        options.timeoutMs ?? 15_000,
      );
      context.log.info({ headSha: group.head_sha, sites: answered }, 'merge group answered');
    });

    // "Re-run" on one of our check runs: its external_id is the deploy event it showed.
    app.on('check_run.rerequested', async (context) => {
      const run = context.payload.check_run;
      if (!run.name.startsWith(CHECK_NAME_PREFIX) || !run.external_id) {
        context.log.debug({ name: run.name }, 'rerequested check run is not a gate result; ignored');
        return;
      }
      await rerunAll(context.log, options.rerun, [run.external_id], context.payload.repository.full_name);
    });

    // "Re-run all checks": GitHub names the suite, not our deploy events, so we ask GitHub which of our
    // check runs the suite holds and re-run the latest one per check name (one per site).
    app.on('check_suite.rerequested', async (context) => {
      const suite = context.payload.check_suite;
      const { owner, repo } = context.repo();
      const runs = await context.octokit.paginate(context.octokit.rest.checks.listForSuite, {
        owner,
        repo,
        check_suite_id: suite.id,
        per_page: 100,
      });
      const latest = new Map<string, { id: number; external_id: string }>();
      for (const run of runs) {
        if (!run.name.startsWith(CHECK_NAME_PREFIX) || !run.external_id) continue;
        const seen = latest.get(run.name);
        if (!seen || run.id > seen.id) latest.set(run.name, { id: run.id, external_id: run.external_id });
      }
      if (latest.size === 0) {
        context.log.info({ suite: suite.id }, 'rerequested check suite holds no gate results; ignored');
        return;
      }
      const deployIds = [...latest.values()].map((r) => r.external_id);
      await rerunAll(context.log, options.rerun, deployIds, context.payload.repository.full_name);
    });
  };
}

interface HandlerLog {
  info(o: object, m: string): void;
  warn(o: object, m: string): void;
  error(o: object, m: string): void;
}

/**
 * Re-runs each deploy event in turn. One failing re-run does not stop the others (a suite may hold several
 * sites); the first failure is rethrown at the end so the webhook delivery is marked failed on GitHub.
 */
async function rerunAll(log: HandlerLog, rerun: RerunGate, deployIds: string[], repository: string) {
  let failure: Error | undefined;
  for (const deployId of deployIds) {
    try {
      const next = await rerun(deployId, repository);
      if (!next) {
        log.warn({ deployId, repository }, 'rerequested check run names no deploy event of this repository');
        continue;
      }
      log.info({ from: deployId, deployId: next.deployId, repository }, 'gate re-evaluated on request');
    } catch (err) {
      log.error({ err, deployId, repository }, 'gate re-run failed');
      failure ??= err instanceof Error ? err : new Error(String(err));
    }
  }
  if (failure) throw failure;
}

function accountName(account: { login: string } | { slug: string } | null | undefined): string | undefined {
  if (!account) return undefined;
  return 'login' in account ? account.login : account.slug;
}
