import type { InstallationOctokit } from './pr-comment.js';
import { checkRunName } from './check-run-payload.js';
import { withDeadline } from './github-requests.js';

/** The sites bound to a repository for the org its installation is linked to (none: not linked). */
export type MergeGroupSites = (
  installationId: number,
  repository: string,
) => Promise<Array<{ siteId: string; mergeGroupScans: boolean }>>;

export interface MergeGroupRequest {
  owner: string;
  repo: string;
  installationId: number;
  headSha: string;
  baseRef: string;
}

const NEUTRAL_SUMMARY = [
  'The merge queue asked for checks on this merge-group commit, and this site’s setting',
  '`merge_group_scans` says its workflow does not scan merge groups, so there is no gate result to wait for.',
  'This check is `neutral` so that the queue does not wait for it until it times out.',
  '',
  'To gate merge-group commits, run the workflow `on: merge_group` with the a11y-gate Action (it compares',
  'the merge-group commit with the scan of its base commit) and set the site’s `merge_group_scans` to true.',
].join('\n');

/**
 * Answers a merge queue's `checks_requested`: for each site bound to the repository whose workflow does
 * not scan merge groups, a `neutral` check run on the merge-group commit that says so. Sites whose
 * workflow does scan them get nothing here: their gate result is posted on that commit like any other,
 * and a second run of the same name would make the required check ambiguous.
 */
export async function answerMergeGroup(
  octokit: InstallationOctokit,
  request: MergeGroupRequest,
  sites: MergeGroupSites,
  timeoutMs: number,
): Promise<string[]> {
  const bound = await sites(request.installationId, `${request.owner}/${request.repo}`);
  const answered: string[] = [];
  for (const site of bound) {
    if (site.mergeGroupScans) continue;
    await withDeadline(timeoutMs, (signal) =>
      octokit.rest.checks.create({
        owner: request.owner,
        repo: request.repo,
        name: checkRunName(site.siteId),
        head_sha: request.headSha,
        status: 'completed',
        conclusion: 'neutral',
        completed_at: new Date().toISOString(),
        output: {
          title: 'This workflow does not scan merge groups',
          summary: NEUTRAL_SUMMARY,
        },
        request: { signal },
      }),
    );
    answered.push(site.siteId);
  }
  return answered;
}
