import type { CheckRunUpdate } from '../../../core/github/check-run.js';
import { nowIso } from '../../domain/ids.js';
import type { ApiContext } from '../../context.js';
import {
  claimPendingCheckRun,
  setCheckRun,
  stalePendingCheckRuns,
  type DeployRecord,
} from '../../store/gate/deploys.js';

/**
 * The GitHub check run of a deploy event, as the App reports its progress: the state a new event starts
 * in, the App's updates, and the sweep that hands back check runs a stopped process left pending.
 */

/** `pending` when the App runs in this process and knows where to post, else `skipped` with the reason. */
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

/**
 * Deploy events whose check run stayed `pending` for longer than `olderThanMs` (the process that should
 * have posted it stopped first), each claimed for this caller; the App posts them again.
 */
export async function claimStalePendingCheckRuns(
  ctx: ApiContext,
  olderThanMs: number,
  limit = 50,
): Promise<string[]> {
  const now = Date.now();
  const stale = await stalePendingCheckRuns(ctx.db, nowIso(new Date(now - olderThanMs)), limit);
  const claimed: string[] = [];
  for (const d of stale) {
    if (await claimPendingCheckRun(ctx.db, d.id, d.updatedAt, nowIso(new Date(now)))) claimed.push(d.id);
  }
  return claimed;
}
