import type { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { Probot } from 'probot';
import type { CheckRunState } from '../api/domain/check-run.js';
import type { GateResult } from '../api/domain/gate-report.js';
import { annotationBatches, buildCheckRun } from './check-run-payload.js';

export type { CheckRunState } from '../api/domain/check-run.js';

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
  checkRun?: CheckRunState | null;
}

/** What the publisher needs from the API: read a deploy event and record its check run's state. */
export interface DeployAccess {
  load(deployId: string): Promise<PublishableDeploy | undefined>;
  setCheckRun(deployId: string, state: CheckRunState): Promise<void>;
}

export interface CheckRunPublisherOptions {
  probot: Probot;
  deploys: DeployAccess;
  logger: Logger;
  /** Base of `details_url` (PUBLIC_URL, else the server's own URL). */
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
}

export const DEFAULT_GITHUB_TIMEOUT_MS = 15_000;

export interface CheckRunPublisher {
  /** Creates the check run of one deploy event and records the outcome; never throws. */
  publish(deployId: string): Promise<CheckRunState>;
  /** Publishes after every `deploy.completed`, off the request's path. */
  listen(events: EventEmitter): () => void;
  /** Resolves when every publication started so far has finished (tests, shutdown). */
  idle(): Promise<void>;
}

const REPOSITORY = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/;

export function createCheckRunPublisher(options: CheckRunPublisherOptions): CheckRunPublisher {
  const { probot, deploys } = options;
  const log = options.logger.child({ component: 'check-runs' });
  const inFlight = new Set<Promise<unknown>>();
  const timeoutMs = options.timeoutMs ?? DEFAULT_GITHUB_TIMEOUT_MS;

  async function record(deployId: string, state: CheckRunState): Promise<CheckRunState> {
    try {
      await deploys.setCheckRun(deployId, state);
    } catch (err) {
      log.error({ err, deployId }, 'could not record the check run state');
    }
    return state;
  }

  async function publish(deployId: string): Promise<CheckRunState> {
    let deploy: PublishableDeploy | undefined;
    try {
      deploy = await deploys.load(deployId);
    } catch (err) {
      log.error({ err, deployId }, 'could not load the deploy event for its check run');
      return record(deployId, { status: 'failed', error: 'could not load the deploy event' });
    }
    if (!deploy) {
      log.warn({ deployId }, 'deploy event not found; no check run');
      return { status: 'skipped', error: 'deploy event not found' };
    }
    if (deploy.checkRun && deploy.checkRun.status !== 'pending') return deploy.checkRun;
    const match = REPOSITORY.exec(deploy.repository ?? '');
    if (!match) {
      return record(deployId, {
        status: 'skipped',
        error: deploy.repository ? `repository "${deploy.repository}" is not owner/name` : 'no repository',
      });
    }
    const [, owner, repo] = match;
    const where = `${owner}/${repo}`;

    let installationId: number;
    try {
      const appOctokit = await probot.auth();
      const { data } = await withDeadline(timeoutMs, (signal) =>
        appOctokit.rest.apps.getRepoInstallation({ owner, repo, request: { signal } }),
      );
      installationId = data.id;
    } catch (err) {
      if (statusOf(err) === 404) {
        log.info({ deployId, repository: where }, 'no installation of the App for this repository');
        return record(deployId, { status: 'skipped', error: `no installation for ${where}` });
      }
      log.warn({ err: describe(err), deployId, repository: where }, 'installation lookup failed');
      return record(deployId, {
        status: 'failed',
        error: `installation lookup for ${where}: ${describe(err)}`,
      });
    }

    const linked = await options.installationOrg(installationId).catch((err: unknown) => {
      log.error({ err, deployId }, 'could not read the installation link');
      return null;
    });
    if (linked !== deploy.org) {
      const reason =
        linked === null
          ? 'could not read which org the installation belongs to'
          : `${where} belongs to GitHub installation ${installationId}, which is not linked to org "${deploy.org}"`;
      log.warn({ deployId, repository: where, installationId, org: deploy.org }, 'check run refused');
      return record(deployId, { status: linked === null ? 'failed' : 'skipped', error: reason });
    }

    const payload = buildCheckRun(deploy.result, {
      detailsUrl: `${options.baseUrl()}/api/v1/deploy/${encodeURIComponent(deploy.result.id)}`,
    });
    const [first = [], ...rest] = annotationBatches(payload.annotations);
    let created: { id: number; html_url: string | null } | undefined;
    try {
      const octokit = await probot.auth(installationId);
      const { annotations: _all, output, ...fields } = payload;
      // The installation token is fetched inside this first call (and may be the part that hangs).
      const res = await withDeadline(timeoutMs, (signal) =>
        octokit.rest.checks.create({
          owner,
          repo,
          ...fields,
          completed_at: new Date().toISOString(),
          output: { ...output, annotations: first },
          request: { signal },
        }),
      );
      created = { id: res.data.id, html_url: res.data.html_url };
      // GitHub takes 50 annotations per request: the rest follow as updates of the same run.
      for (const batch of rest) {
        // title and summary are required with annotations; text is sent again so no update can blank it.
        await withDeadline(timeoutMs, (signal) =>
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
      log.warn({ err: describe(err), deployId, repository: where }, 'check run could not be published');
      return record(deployId, {
        status: 'failed',
        // Keep the run's id when it was created but a later annotation batch failed.
        ...(created ? { id: created.id, url: created.html_url ?? undefined } : {}),
        error: `GitHub check run for ${where}: ${describe(err)}`,
      });
    }
    const { id, html_url } = created!;
    log.info({ deployId, repository: where, checkRunId: id }, 'check run published');
    return record(deployId, { status: 'completed', id, url: html_url ?? undefined });
  }

  function track<T>(p: Promise<T>): Promise<T> {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    return p;
  }

  return {
    publish: (deployId) => track(publish(deployId)),
    listen(events) {
      const onDeploy = (event: { deployId?: string }) => {
        if (!event?.deployId) return;
        const deployId = event.deployId;
        // The trigger's answer must not wait for GitHub: start on the next turn of the event loop.
        track(new Promise<void>((resolve) => setImmediate(resolve)).then(() => publish(deployId))).catch(
          (err) => log.error({ err, deployId }, 'check run publisher crashed'),
        );
      };
      events.on('deploy.completed', onDeploy);
      return () => events.off('deploy.completed', onDeploy);
    },
    async idle() {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
  };
}

class GitHubTimeout extends Error {
  override name = 'GitHubTimeout';
}

/**
 * Runs one GitHub request with its own deadline. The abort signal cancels Octokit's fetch, but the
 * installation-token exchange inside auth does not see it, so the race is what bounds the step. The
 * deadline is per request, not per publication: Probot's throttling spaces writes a second apart, so a
 * run with many annotation batches legitimately takes longer than one deadline.
 */
function withDeadline<T>(timeoutMs: number, step: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const signal = AbortSignal.timeout(timeoutMs);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new GitHubTimeout(`no answer from GitHub within ${timeoutMs} ms`));
    signal.addEventListener('abort', onAbort, { once: true });
    step(signal)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown })?.status;
  return typeof status === 'number' ? status : undefined;
}

/** A short, secret-free reason: the HTTP status and GitHub's message, or the network error. */
function describe(err: unknown): string {
  const status = statusOf(err);
  const message = err instanceof Error ? err.message : String(err);
  const text = status
    ? `GitHub answered ${status}${message ? ` (${message})` : ''}`
    : message || 'unknown error';
  return text.length > 300 ? text.slice(0, 299) + '…' : text;
}
