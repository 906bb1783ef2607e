import { consolePaths } from '../api/domain/console-links.js';
import type { Logger } from 'pino';
import type { Probot } from 'probot';
import type { CheckRunUpdate } from '../core/github/check-run.js';
import type { DeployPublication, GitHubApp, PublicationOutcome } from '../api/index.js';
import { annotationBatches, buildCheckRun } from './check-run-payload.js';
import { describe, httpStatusOf, worthRetrying, withDeadline } from './github-requests.js';

export interface CheckRunPublisherOptions {
  probot: Probot;
  logger: Logger;
  /** Base of `details_url`, the console's deploy page (PUBLIC_URL, else the server's own URL). */
  baseUrl: () => string;
  /**
   * The org an installation of the App is linked to (undefined: none). A check run is posted only when
   * the repository's installation is linked to the deploy event's org, so no org can reach another's
   * repository, whether it names it in its site settings, a trigger body or a re-run.
   */
  installationOrg: (installationId: number) => Promise<string | undefined>;
  /**
   * Deadline of each GitHub request (installation lookup, token + check run, each annotation update).
   * A request GitHub does not answer in time fails the attempt, and the delivery tries again later.
   */
  timeoutMs?: number;
  /**
   * Writes the pull request comment after the check run (app/pr-comment.ts); its failure leaves the check
   * run's state alone (a transient one has the delivery try again).
   */
  comment?: (
    installationId: number,
    target: { owner: string; repo: string },
    deploy: DeployPublication,
  ) => Promise<void>;
}

export const DEFAULT_GITHUB_TIMEOUT_MS = 15_000;

const REPOSITORY = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/;

/** What one publication needs: the options and the component's logger. */
interface Publication {
  options: CheckRunPublisherOptions;
  log: Logger;
  timeoutMs: number;
}

/** A step that did not get through: the state to record, and GitHub's failure when there was one. */
interface Stopped {
  state: CheckRunUpdate;
  err?: unknown;
}

type Target = { owner: string; repo: string; where: string };

/**
 * The installation of the App on the repository, when it is linked to the deploy event's org; else the
 * state to record (skipped: not installed or another org's; failed: GitHub or the link could not be read).
 */
async function allowedInstallation(
  p: Publication,
  deployId: string,
  org: string,
  t: Target,
): Promise<number | Stopped> {
  let installationId: number;
  try {
    const appOctokit = await p.options.probot.auth();
    const { data } = await withDeadline(p.timeoutMs, (signal) =>
      appOctokit.rest.apps.getRepoInstallation({ owner: t.owner, repo: t.repo, request: { signal } }),
    );
    installationId = data.id;
  } catch (err) {
    if (httpStatusOf(err) === 404) {
      p.log.info({ deployId, repository: t.where }, 'no installation of the App for this repository');
      return { state: { status: 'skipped', error: `no installation for ${t.where}` } };
    }
    p.log.warn({ err: describe(err), deployId, repository: t.where }, 'installation lookup failed');
    return {
      state: { status: 'failed', error: `installation lookup for ${t.where}: ${describe(err)}` },
      err,
    };
  }
  let linked: string | undefined;
  try {
    linked = await p.options.installationOrg(installationId);
  } catch (err) {
    p.log.error({ err, deployId }, 'could not read the installation link');
    return {
      state: { status: 'failed', error: 'could not read which org the installation belongs to' },
      err,
    };
  }
  if (linked === org) return installationId;
  p.log.warn({ deployId, repository: t.where, installationId, org }, 'check run refused');
  return {
    state: {
      status: 'skipped',
      error: `${t.where} belongs to GitHub installation ${installationId}, which is not linked to org "${org}"`,
    },
  };
}

/**
 * Creates the check run (or, when an earlier attempt created it, updates that run), records its id at
 * once, then adds the annotations beyond the first 50 as updates of the same run.
 */
async function postCheckRun(
  p: Publication,
  deploy: DeployPublication,
  installationId: number,
  t: Target,
  record: (state: CheckRunUpdate) => Promise<void>,
): Promise<CheckRunUpdate | Stopped> {
  const deployId = deploy.result.id;
  const payload = buildCheckRun(deploy.result, {
    detailsUrl: p.options.baseUrl() + consolePaths.deploy(deployId),
    pictures: deploy.pictures,
  });
  const [first = [], ...rest] = annotationBatches(payload.annotations);
  const { owner, repo } = t;
  const { annotations: _all, images, output, ...fields } = payload;
  const earlier = deploy.checkRun.id;
  let created = earlier === undefined ? undefined : { id: earlier, url: deploy.checkRun.url };
  try {
    const octokit = await p.options.probot.auth(installationId);
    if (earlier !== undefined) {
      // An earlier attempt created the run: it is updated, never created a second time.
      await withDeadline(p.timeoutMs, (signal) =>
        octokit.rest.checks.update({
          owner,
          repo,
          check_run_id: earlier,
          ...fields,
          completed_at: new Date().toISOString(),
          output: { ...output, ...(images.length ? { images } : {}) },
          request: { signal },
        }),
      );
    } else {
      // The installation token is fetched inside this first call (and may be the part that hangs).
      const res = await withDeadline(p.timeoutMs, (signal) =>
        octokit.rest.checks.create({
          owner,
          repo,
          ...fields,
          completed_at: new Date().toISOString(),
          output: { ...output, annotations: first, ...(images.length ? { images } : {}) },
          request: { signal },
        }),
      );
      const run = { id: res.data.id, url: res.data.html_url ?? undefined };
      created = run;
      await record({ status: 'pending', ...run });
      // GitHub takes 50 annotations per request: the rest follow as updates of the same run.
      for (const batch of rest) {
        // title and summary are required with annotations; text is sent again so no update can blank it.
        await withDeadline(p.timeoutMs, (signal) =>
          octokit.rest.checks.update({
            owner,
            repo,
            check_run_id: run.id,
            output: { ...output, annotations: batch },
            request: { signal },
          }),
        );
      }
    }
  } catch (err) {
    p.log.warn({ err: describe(err), deployId, repository: t.where }, 'check run could not be published');
    return {
      state: {
        status: 'failed',
        // Keep the run's id when it was created but a later annotation batch failed.
        ...(created ?? {}),
        error: `GitHub check run for ${t.where}: ${describe(err)}`,
      },
      err,
    };
  }
  p.log.info({ deployId, repository: t.where, checkRunId: created?.id }, 'check run published');
  return { status: 'completed', ...created };
}

/** The outcome of a publication stopped by `s`: a retry when GitHub's failure may pass. */
function stoppedAt(s: Stopped): PublicationOutcome {
  if (s.err === undefined) return { checkRun: s.state, retry: false, status: null, error: null };
  return {
    checkRun: s.state,
    retry: worthRetrying(s.err),
    status: httpStatusOf(s.err) ?? null,
    error: s.state.error ?? describe(s.err),
  };
}

async function publishDeploy(
  p: Publication,
  deploy: DeployPublication,
  record: (state: CheckRunUpdate) => Promise<void>,
): Promise<PublicationOutcome> {
  const deployId = deploy.result.id;
  const match = REPOSITORY.exec(deploy.repository ?? '');
  if (!match) {
    const error = deploy.repository ? `repository "${deploy.repository}" is not owner/name` : 'no repository';
    return stoppedAt({ state: { status: 'skipped', error } });
  }
  const t: Target = { owner: match[1], repo: match[2], where: `${match[1]}/${match[2]}` };
  const installation = await allowedInstallation(p, deployId, deploy.org, t);
  if (typeof installation !== 'number') return stoppedAt(installation);
  // A run completed by an earlier attempt is not posted again: that attempt's comment failed.
  const posted =
    deploy.checkRun.status === 'completed'
      ? deploy.checkRun
      : await postCheckRun(p, deploy, installation, t, record);
  const outcome = 'state' in posted ? stoppedAt(posted) : stoppedAt({ state: posted });
  if (!p.options.comment || !deploy.prComment) return outcome;
  try {
    await p.options.comment(installation, { owner: t.owner, repo: t.repo }, deploy);
  } catch (err) {
    p.log.warn({ err: describe(err), deployId, repository: t.where }, 'pull request comment not written');
    // The check run's own failure, if any, is what the delivery reports; else the comment's, if it may pass.
    if (outcome.error === null && worthRetrying(err)) {
      return {
        ...outcome,
        retry: true,
        status: httpStatusOf(err) ?? null,
        error: `pull request comment: ${describe(err)}`,
      };
    }
  }
  return outcome;
}

/** The App's publication of deploy decisions, one attempt of a GitHub delivery at a time. */
export function createCheckRunPublisher(options: CheckRunPublisherOptions): GitHubApp['publish'] {
  const p: Publication = {
    options,
    log: options.logger.child({ component: 'check-runs' }),
    timeoutMs: options.timeoutMs ?? DEFAULT_GITHUB_TIMEOUT_MS,
  };
  return async (deploy, record) => {
    // Settled: the gate found nothing to post to, or the run is posted and no comment is left to write.
    const commentLeft = options.comment !== undefined && deploy.prComment;
    if (deploy.checkRun.status === 'skipped' || (deploy.checkRun.status === 'completed' && !commentLeft)) {
      return { checkRun: deploy.checkRun, retry: false, status: null, error: null };
    }
    const outcome = await publishDeploy(p, deploy, record);
    // A run an earlier attempt completed keeps its recorded state; every other outcome is recorded.
    if (outcome.checkRun !== deploy.checkRun) await record(outcome.checkRun);
    return outcome;
  };
}
