import type { ProbotOctokit } from 'probot';
import type { GateIssue, GateResult } from '../core/gate/deploy-event.js';
import { renderPullRequestComment } from '../core/github/pr-comment.js';
import { writeSiteComment, type CommentsApi } from '../core/github/pr-comment-writer.js';
import { describe, httpStatusOf, withDeadline } from './github-requests.js';

/** An installation's Octokit, as `probot.auth(installationId)` gives it. */
export type InstallationOctokit = InstanceType<typeof ProbotOctokit>;

export interface CommentRepository {
  owner: string;
  repo: string;
}

/** One pull request comment of one site, as the lease names it. */
export interface CommentKey {
  org: string;
  repository: string;
  pullNumber: number;
  siteId: string;
}

/**
 * Runs `write` as the only writer of that comment (the API's `withPullRequestComment`): it gets the id
 * stored by the writer before (null: none) and answers the id to store.
 */
export type CommentLease = <T extends { commentId?: number | null }>(
  key: CommentKey,
  write: (commentId: number | null) => Promise<T>,
) => Promise<T>;

export interface CommentLog {
  info(o: object, m: string): void;
  warn(o: object, m: string): void;
}

export interface GateCommentOptions {
  lease: CommentLease;
  log: CommentLog;
  timeoutMs: number;
  /** The console's page of the deploy event, when a public address is configured. */
  deployUrl?: string;
  /** A signed picture of an issue's element, when there is one. */
  thumbnailOf?: (issue: GateIssue) => string | undefined;
}

export type CommentOutcome =
  | { status: 'created' | 'updated'; pullNumber: number; commentId: number }
  | { status: 'skipped'; reason: string };

/** At most this many open pull requests of one commit get the comment (a commit is rarely in more). */
const MAX_PULL_REQUESTS = 5;

/**
 * Writes the gate result as the one comment of its site on the pull request: the number the trigger
 * named, else every open pull request GitHub lists for the commit. Callable with any installation's
 * Octokit (a result from a fork's workflow run too). Throws when GitHub refuses; the caller logs it.
 */
export async function publishGateComment(
  octokit: InstallationOctokit,
  where: CommentRepository,
  deploy: { org: string; result: GateResult },
  pullRequest: number | null | undefined,
  options: GateCommentOptions,
): Promise<CommentOutcome[]> {
  const numbers = pullRequest
    ? [pullRequest]
    : await openPullRequests(octokit, where, deploy.result.sha, options);
  if (numbers.length === 0) {
    options.log.info(
      { deployId: deploy.result.id, repository: `${where.owner}/${where.repo}` },
      'no open pull request for the commit; no comment',
    );
    return [{ status: 'skipped', reason: 'no open pull request for the commit' }];
  }
  const body = renderPullRequestComment({
    result: deploy.result,
    deployUrl: options.deployUrl,
    thumbnailOf: options.thumbnailOf,
  });
  const outcomes: CommentOutcome[] = [];
  for (const pullNumber of numbers) {
    const key = {
      org: deploy.org,
      repository: `${where.owner}/${where.repo}`,
      pullNumber,
      siteId: deploy.result.siteId,
    };
    const written = await options.lease(key, (stored) =>
      writeComment(octokit, where, pullNumber, deploy.result.siteId, body, stored, options.timeoutMs),
    );
    options.log.info({ deployId: deploy.result.id, ...written }, `pull request comment ${written.status}`);
    outcomes.push(written);
  }
  return outcomes;
}

async function openPullRequests(
  octokit: InstallationOctokit,
  where: CommentRepository,
  sha: string,
  options: GateCommentOptions,
): Promise<number[]> {
  const { data } = await withDeadline(options.timeoutMs, (signal) =>
    octokit.rest.repos.listPullRequestsAssociatedWithCommit({
      ...where,
      commit_sha: sha,
      per_page: 100,
      request: { signal },
    }),
  );
  return data
    .filter((pr) => pr.state === 'open')
    .map((pr) => pr.number)
    .slice(0, MAX_PULL_REQUESTS);
}

/** The site's comment on one pull request through the shared writer, with the installation's Octokit. */
async function writeComment(
  octokit: InstallationOctokit,
  where: CommentRepository,
  pullNumber: number,
  siteId: string,
  body: string,
  stored: number | null,
  timeoutMs: number,
): Promise<{ status: 'created' | 'updated'; pullNumber: number; commentId: number }> {
  const issue = { ...where, issue_number: pullNumber };
  const api: CommentsApi = {
    listPage: async (page) =>
      (
        await withDeadline(timeoutMs, (signal) =>
          octokit.rest.issues.listComments({ ...issue, per_page: 100, page, request: { signal } }),
        )
      ).data,
    update: async (commentId, text) => {
      await withDeadline(timeoutMs, (signal) =>
        octokit.rest.issues.updateComment({
          ...where,
          comment_id: commentId,
          body: text,
          request: { signal },
        }),
      );
    },
    create: async (text) =>
      (
        await withDeadline(timeoutMs, (signal) =>
          octokit.rest.issues.createComment({ ...issue, body: text, request: { signal } }),
        )
      ).data.id,
  };
  const written = await writeSiteComment(api, {
    siteId,
    body,
    stored,
    isGone: (err) => httpStatusOf(err) === 404,
  });
  return { ...written, pullNumber };
}

/** A short reason for the log when writing the comment failed. */
export function commentFailure(err: unknown): string {
  return describe(err);
}
