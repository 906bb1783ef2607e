import { consolePaths } from '../api/domain/console-links.js';
import type { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { Probot } from 'probot';
import type { CheckRunUpdate } from '../core/github/check-run.js';
import { type GateResult } from '../core/gate/deploy-event.js';
import { annotationBatches, buildCheckRun, type IssuePicture } from './check-run-payload.js';
import { describe, statusOf, withDeadline } from './github-requests.js';

export interface PublishableDeploy {
  org: string;
  /** `owner/name` from the trigger request or the site settings; absent: nothing to publish to. */
  repository?: string | null;
  result: GateResult;
  /**
   * The state the deploy event records now. Only a `pending` event is published: the gate records
   * `skipped` itself when there is nothing to post (with its own reason), and a finished publication is
   * never repeated when `deploy.completed` arrives twice.
   */
  checkRun?: CheckRunUpdate | null;
  /** The trigger's pull request number, when it named one. */
  pullRequest?: number | null;
  /** The site's `pr_comment` setting (absent: true). */
  prComment?: boolean;
  /** The new issues' element screenshots by fingerprint, with their signed links (none: no pictures). */
  pictures?: ReadonlyMap<string, IssuePicture>;
}

/** What the publisher needs from the API: read a deploy event and record its check run's state. */
export interface DeployAccess {
  load(deployId: string): Promise<PublishableDeploy | undefined>;
  setCheckRun(deployId: string, state: CheckRunUpdate): Promise<void>;
}

export interface CheckRunPublisherOptions {
  probot: Probot;
  deploys: DeployAccess;
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
   * GitHub not answering must not leave the deploy event `pending` for ever nor hold up a shutdown.
   */
  timeoutMs?: number;
  /**
   * Writes the pull request comment after the check run (app/pr-comment.ts); its failure is logged and
   * leaves the check run's state alone.
   */
  comment?: (
    installationId: number,
    target: { owner: string; repo: string },
    deploy: PublishableDeploy,
  ) => Promise<void>;
}

export const DEFAULT_GITHUB_TIMEOUT_MS = 15_000;

export interface CheckRunPublisher {
  /** Creates the check run of one deploy event and records the outcome; never throws. */
  publish(deployId: string): Promise<CheckRunUpdate>;
  /** Publishes after every `deploy.completed`, off the request's path. */
  listen(events: EventEmitter): () => void;
  /** Resolves when every publication started so far has finished (tests, shutdown). */
  idle(): Promise<void>;
}

const REPOSITORY = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/;

/** What one publication needs: the options, the component's logger and the recorder of states. */
interface Publication {
  options: CheckRunPublisherOptions;
  log: Logger;
  timeoutMs: number;
  record(deployId: string, state: CheckRunUpdate): Promise<CheckRunUpdate>;
}

type Target = { owner: string; repo: string; where: string };

/** The deploy event, when it has a pending check run to publish; else the state to answer. */
async function loadPending(p: Publication, deployId: string): Promise<PublishableDeploy | CheckRunUpdate> {
  let deploy: PublishableDeploy | undefined;
  try {
    deploy = await p.options.deploys.load(deployId);
  } catch (err) {
    p.log.error({ err, deployId }, 'could not load the deploy event for its check run');
    return p.record(deployId, { status: 'failed', error: 'could not load the deploy event' });
  }
  if (!deploy) {
    p.log.warn({ deployId }, 'deploy event not found; no check run');
    return { status: 'skipped', error: 'deploy event not found' };
  }
  if (deploy.checkRun && deploy.checkRun.status !== 'pending') return deploy.checkRun;
  return deploy;
}

/**
 * The installation of the App on the repository, when it is linked to the deploy event's org; else the
 * state to record (skipped: not installed or another org's; failed: GitHub or the link could not be read).
 */
async function allowedInstallation(
  p: Publication,
  deployId: string,
  org: string,
  t: Target,
): Promise<number | CheckRunUpdate> {
  let installationId: number;
  try {
    const appOctokit = await p.options.probot.auth();
    const { data } = await withDeadline(p.timeoutMs, (signal) =>
      appOctokit.rest.apps.getRepoInstallation({ owner: t.owner, repo: t.repo, request: { signal } }),
    );
    installationId = data.id;
  } catch (err) {
    if (statusOf(err) === 404) {
      p.log.info({ deployId, repository: t.where }, 'no installation of the App for this repository');
      return { status: 'skipped', error: `no installation for ${t.where}` };
    }
    p.log.warn({ err: describe(err), deployId, repository: t.where }, 'installation lookup failed');
    return { status: 'failed', error: `installation lookup for ${t.where}: ${describe(err)}` };
  }
  const linked = await p.options.installationOrg(installationId).catch((err: unknown) => {
    p.log.error({ err, deployId }, 'could not read the installation link');
    return null;
  });
  if (linked === org) return installationId;
  p.log.warn({ deployId, repository: t.where, installationId, org }, 'check run refused');
  return linked === null
    ? { status: 'failed', error: 'could not read which org the installation belongs to' }
    : {
        status: 'skipped',
        error: `${t.where} belongs to GitHub installation ${installationId}, which is not linked to org "${org}"`,
      };
}

/** Creates the check run, then adds the annotations beyond the first 50 as updates of the same run. */
async function postCheckRun(
  p: Publication,
  deployId: string,
  deploy: PublishableDeploy,
  installationId: number,
  t: Target,
): Promise<CheckRunUpdate> {
  const payload = buildCheckRun(deploy.result, {
    detailsUrl: p.options.baseUrl() + consolePaths.deploy(deploy.result.id),
    pictures: deploy.pictures,
  });
  const [first = [], ...rest] = annotationBatches(payload.annotations);
  const { owner, repo } = t;
  let created: { id: number; html_url: string | null } | undefined;
  try {
    const octokit = await p.options.probot.auth(installationId);
    const { annotations: _all, images, output, ...fields } = payload;
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
    created = { id: res.data.id, html_url: res.data.html_url };
    // GitHub takes 50 annotations per request: the rest follow as updates of the same run.
    for (const batch of rest) {
      // title and summary are required with annotations; text is sent again so no update can blank it.
      await withDeadline(p.timeoutMs, (signal) =>
        octokit.rest.checks.update({
          owner,
          repo,
          check_run_id: res.data.id,
          output: { ...output, annotations: batch },
          request: { signal },
        }),
      );
    }
  } catch (err) {
    p.log.warn({ err: describe(err), deployId, repository: t.where }, 'check run could not be published');
    return {
      status: 'failed',
      // Keep the run's id when it was created but a later annotation batch failed.
      ...(created ? { id: created.id, url: created.html_url ?? undefined } : {}),
      error: `GitHub check run for ${t.where}: ${describe(err)}`,
    };
  }
  p.log.info({ deployId, repository: t.where, checkRunId: created.id }, 'check run published');
  return { status: 'completed', id: created.id, url: created.html_url ?? undefined };
}

async function publishDeploy(p: Publication, deployId: string): Promise<CheckRunUpdate> {
  const deploy = await loadPending(p, deployId);
  if (!('result' in deploy)) return deploy;
  const match = REPOSITORY.exec(deploy.repository ?? '');
  if (!match) {
    return p.record(deployId, {
      status: 'skipped',
      error: deploy.repository ? `repository "${deploy.repository}" is not owner/name` : 'no repository',
    });
  }
  const t: Target = { owner: match[1], repo: match[2], where: `${match[1]}/${match[2]}` };
  const installation = await allowedInstallation(p, deployId, deploy.org, t);
  if (typeof installation !== 'number') return p.record(deployId, installation);
  const state = await p.record(deployId, await postCheckRun(p, deployId, deploy, installation, t));
  if (p.options.comment && deploy.prComment !== false) {
    await p.options.comment(installation, { owner: t.owner, repo: t.repo }, deploy).catch((err: unknown) => {
      p.log.warn({ err: describe(err), deployId, repository: t.where }, 'pull request comment not written');
    });
  }
  return state;
}

export function createCheckRunPublisher(options: CheckRunPublisherOptions): CheckRunPublisher {
  const log = options.logger.child({ component: 'check-runs' });
  const inFlight = new Set<Promise<unknown>>();
  const p: Publication = {
    options,
    log,
    timeoutMs: options.timeoutMs ?? DEFAULT_GITHUB_TIMEOUT_MS,
    async record(deployId, state) {
      try {
        await options.deploys.setCheckRun(deployId, state);
      } catch (err) {
        log.error({ err, deployId }, 'could not record the check run state');
      }
      return state;
    },
  };

  function track<T>(pr: Promise<T>): Promise<T> {
    inFlight.add(pr);
    void pr.finally(() => inFlight.delete(pr));
    return pr;
  }

  return {
    publish: (deployId) => track(publishDeploy(p, deployId)),
    listen(events) {
      const onDeploy = (event: { deployId?: string }) => {
        if (!event?.deployId) return;
        const deployId = event.deployId;
        // The trigger's answer must not wait for GitHub: start on the next turn of the event loop.
        track(
          new Promise<void>((resolve) => setImmediate(resolve)).then(() => publishDeploy(p, deployId)),
        ).catch((err) => log.error({ err, deployId }, 'check run publisher crashed'));
      };
      events.on('deploy.completed', onDeploy);
      return () => events.off('deploy.completed', onDeploy);
    },
    async idle() {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
  };
}
