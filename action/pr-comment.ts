import * as core from '@actions/core';
import { getOctokit } from '@actions/github';
import type { GateResult } from '../core/gate/deploy-event.js';
import { renderPullRequestComment } from '../core/github/pr-comment.js';
import { writeSiteComment, type CommentsApi } from '../core/github/pr-comment-writer.js';
import type { ActionInputs } from './inputs.js';

/** What became of the comment, for the log (and the tests). */
export type CommentResult = 'created' | 'updated' | 'left to the App' | 'off' | 'not allowed' | 'failed';

/** Where the comment links to, and whether the GitHub App writes it instead. */
export interface CommentLinks {
  /** The deploy event's page; absent for a gate judged without a service. */
  deployUrl?: string;
  /** Where every issue is listed when there is no deploy event (the job summary). */
  listedIn?: string;
  /** The App posts this site's results (a service's deploy event whose check run is not `skipped`). */
  appWrites: boolean;
}

/**
 * The pull request comment without the GitHub App: the same text the App writes, with the workflow's
 * token. `comment` left empty writes it only when no App posts this site's results (the deploy event's
 * check run is `skipped`, or no service judged). A token that may not write (a fork's pull request) is
 * reported, never a failure.
 */
export async function commentOnPullRequest(
  inputs: ActionInputs,
  result: GateResult,
  where: CommentLinks,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CommentResult> {
  if (!inputs.pullRequest || inputs.comment === false || !inputs.repository) return 'off';
  if (inputs.comment === null && where.appWrites) {
    core.info('The GitHub App writes the pull request comment for this site.');
    return 'left to the App';
  }
  if (!inputs.githubToken) {
    core.notice('No "github-token": the pull request comment was not written.');
    return 'off';
  }
  const [owner, repo] = inputs.repository.split('/');
  const octokit = getOctokit(inputs.githubToken, {
    baseUrl: env.GITHUB_API_URL || 'https://api.github.com',
  });
  // Each request gets its own deadline, as the service's client does.
  const request = () => ({ signal: AbortSignal.timeout(15_000) });
  const issue = { owner, repo, issue_number: inputs.pullRequest };
  const api: CommentsApi = {
    listPage: async (page) =>
      (await octokit.rest.issues.listComments({ ...issue, per_page: 100, page, request: request() })).data,
    update: async (commentId, body) => {
      await octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: commentId,
        body,
        request: request(),
      });
    },
    create: async (body) =>
      (await octokit.rest.issues.createComment({ ...issue, body, request: request() })).data.id,
  };
  const body = renderPullRequestComment({
    result,
    ...(where.deployUrl ? { deployUrl: where.deployUrl } : {}),
    ...(where.listedIn ? { listedIn: where.listedIn } : {}),
  });
  try {
    const written = await writeSiteComment(api, {
      siteId: result.siteId,
      body,
      stored: null,
      isGone: () => false,
    });
    core.info(
      `Pull request #${inputs.pullRequest}: comment ${written.status === 'created' ? 'written' : 'updated'}.`,
    );
    return written.status;
  } catch (err) {
    const status = statusOf(err);
    if (status === 403 || status === 404) {
      core.notice(
        `The workflow's token may not write to pull request #${inputs.pullRequest} (GitHub answered ${status}; ` +
          'a pull request from a fork gets a read-only token): the result is in the job summary instead.',
      );
      return 'not allowed';
    }
    core.warning(
      `The pull request comment could not be written: ${err instanceof Error ? err.message : String(err)}`,
    );
    return 'failed';
  }
}

/** The HTTP status of an Octokit error, if it has one. */
function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}
