import fs from 'node:fs';
import type { Claim } from '../core/claims/deploy-claims.js';
import { claimsFromDescription } from '../core/claims/pr-body.js';

/** The parts of the run's event payload (GITHUB_EVENT_PATH) the Action reads. */
export interface GitHubEvent {
  number?: number;
  pull_request?: { number?: number; body?: string | null; head?: { sha?: string; ref?: string } };
  workflow_run?: {
    head_sha?: string;
    head_branch?: string | null;
    // Empty for a fork's pull request: GitHub lists only the base repository's own.
    pull_requests?: Array<{ number?: number }>;
  };
  merge_group?: { head_sha?: string; base_sha?: string; head_ref?: string };
  repository?: { default_branch?: string };
}

export function readEvent(env: NodeJS.ProcessEnv): GitHubEvent {
  const file = env.GITHUB_EVENT_PATH;
  if (!file || !fs.existsSync(file)) return {};
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as GitHubEvent;
  } catch {
    // An unreadable event payload only loses the PR head sha default; GITHUB_SHA still applies.
    return {};
  }
}

/** The pull request the run is about, when the event names one. */
export function pullRequestOf(env: NodeJS.ProcessEnv, event: GitHubEvent): number | null {
  const name = env.GITHUB_EVENT_NAME;
  const n =
    name === 'pull_request' || name === 'pull_request_target'
      ? (event.pull_request?.number ?? event.number)
      : name === 'workflow_run'
        ? event.workflow_run?.pull_requests?.[0]?.number
        : undefined;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null;
}

/** The fixes a pull request's description claims (`a11y-gate fixes: …`, core/claims/pr-body.ts). */
export function claimsOf(env: NodeJS.ProcessEnv, event: GitHubEvent): Claim[] {
  const name = env.GITHUB_EVENT_NAME;
  if (name !== 'pull_request' && name !== 'pull_request_target') return [];
  return claimsFromDescription(event.pull_request?.body);
}

/**
 * A merge queue's commit: the merge group's head is judged against the scan of its base commit (the
 * service falls back to the base branch's latest scan when that commit has none).
 */
export function mergeGroupOf(
  env: NodeJS.ProcessEnv,
  event: GitHubEvent,
): { headSha: string; baseSha: string | null; ref: string | null } | null {
  if (env.GITHUB_EVENT_NAME !== 'merge_group' || !event.merge_group?.head_sha) return null;
  const g = event.merge_group;
  return { headSha: g.head_sha!, baseSha: g.base_sha ?? null, ref: g.head_ref ?? null };
}
