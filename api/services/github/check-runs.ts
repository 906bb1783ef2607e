import type { CheckRunUpdate } from '../../../core/github/check-run.js';
import type { DeployEvent } from '../../../core/gate/deploy-event.js';
import { nowIso } from '../../domain/ids.js';
import type { ApiContext } from '../../context.js';
import type { GitHubDeliveryHandler } from '../../outbox/github-delivery.js';
import { readCheckRunTarget, setCheckRun, type DeployRecord } from '../../store/gate/deploys.js';
import { getSite } from '../../store/sites/sites.js';
import { issueScreenshots } from '../scans/screenshot-links.js';

/**
 * The GitHub check run of a deploy event: the state a new event starts in, and the publication of the
 * event by its GitHub delivery (the outbox worker claims, retries and records it).
 */

/**
 * `pending` when the GitHub App is configured and there is a repository to post to (the decision's
 * GitHub delivery then posts it), else `skipped` with the reason.
 */
export function initialCheckRun(repository: string | null, appAttached: boolean): DeployRecord['checkRun'] {
  const skipped = (error: string) => ({ status: 'skipped' as const, id: null, url: null, error });
  if (!repository) return skipped('No repository: neither the request nor the site names one.');
  if (!appAttached) return skipped('The GitHub App is not configured on this server.');
  return { status: 'pending', id: null, url: null, error: null };
}

export async function setDeployCheckRun(ctx: ApiContext, id: string, state: CheckRunUpdate): Promise<void> {
  await setCheckRun(
    ctx.db,
    id,
    { status: state.status, id: state.id ?? null, url: state.url ?? null, error: state.error ?? null },
    nowIso(),
  );
}

function pullRequestOf(request: Record<string, unknown>): number | null {
  const pr = request.pull_request;
  return typeof pr === 'number' && Number.isInteger(pr) && pr > 0 ? pr : null;
}

/**
 * Publishes the deploy event a GitHub delivery carries through the App, and records its check run's
 * state; undefined when the App is not configured here (the worker then leaves GitHub deliveries to an
 * instance that has it).
 */
export function githubDeliveries(ctx: ApiContext): GitHubDeliveryHandler | undefined {
  const app = ctx.github;
  if (!app) return undefined;
  return async (d) => {
    const event = (JSON.parse(d.payload) as { data: DeployEvent }).data;
    const stored = await readCheckRunTarget(ctx.db, d.org, event.id);
    // Removed since (retention, the site's deletion), or its state is final: nothing left to post.
    if (!stored || stored.checkRun.status === 'skipped') {
      return { done: true, retry: false, status: null, error: null };
    }
    const site = await getSite(ctx.db, d.org, event.siteId);
    const fingerprints = event.new_issues.map((i) => i.fingerprint);
    const { checkRun } = stored;
    const outcome = await app.publish(
      {
        org: d.org,
        repository: event.repository,
        result: event,
        pullRequest: pullRequestOf(stored.request),
        prComment: site?.prComment ?? true,
        pictures: await issueScreenshots(ctx, d.org, event.scan_id, fingerprints),
        checkRun: {
          status: checkRun.status,
          ...(checkRun.id !== null ? { id: checkRun.id } : {}),
          ...(checkRun.url !== null ? { url: checkRun.url } : {}),
        },
      },
      (state) => setDeployCheckRun(ctx, event.id, state),
    );
    return {
      done: outcome.error === null,
      retry: outcome.retry,
      status: outcome.status,
      error: outcome.error,
    };
  };
}
