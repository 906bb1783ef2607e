import * as core from '@actions/core';
import { type DeployEvent } from '../core/gate/deploy-event.js';
import { commentMarker, renderPullRequestComment } from '../core/github/pr-comment.js';
import type { ActionInputs } from './inputs.js';

/** What became of the comment, for the log (and the tests). */
export type CommentResult = 'created' | 'updated' | 'left to the App' | 'off' | 'not allowed' | 'failed';

class GitHubRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The pull request comment without the GitHub App: the same text the App writes, with the workflow's
 * token. `comment` left empty writes it only when no App posts this site's results (the deploy event's
 * check run is `skipped`). A token that may not write (a fork's pull request) is reported, never a failure.
 */
export async function commentOnPullRequest(
  inputs: ActionInputs,
  event: DeployEvent,
  detailsUrl: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CommentResult> {
  if (!inputs.pullRequest || inputs.comment === false || !inputs.repository) return 'off';
  if (inputs.comment === null && event.check_run?.status !== 'skipped') {
    core.info('The GitHub App writes the pull request comment for this site.');
    return 'left to the App';
  }
  if (!inputs.githubToken) {
    core.notice('No "github-token": the pull request comment was not written.');
    return 'off';
  }
  const github = new GitHubRepo(
    env.GITHUB_API_URL || 'https://api.github.com',
    inputs.repository,
    inputs.githubToken,
  );
  const body = renderPullRequestComment({ result: event, deployUrl: detailsUrl });
  try {
    const existing = await github.markedComment(inputs.pullRequest, commentMarker(event.siteId));
    if (existing !== undefined) {
      await github.send('PATCH', `/issues/comments/${existing}`, { body });
      core.info(`Pull request #${inputs.pullRequest}: comment updated.`);
      return 'updated';
    }
    await github.send('POST', `/issues/${inputs.pullRequest}/comments`, { body });
    core.info(`Pull request #${inputs.pullRequest}: comment written.`);
    return 'created';
  } catch (err) {
    if (err instanceof GitHubRefused && (err.status === 403 || err.status === 404)) {
      core.notice(
        `The workflow's token may not write to pull request #${inputs.pullRequest} (GitHub answered ${err.status}; ` +
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

/** The few REST calls the comment needs, with the workflow's token. */
class GitHubRepo {
  constructor(
    private readonly api: string,
    private readonly repository: string,
    private readonly token: string,
  ) {}

  async send(method: string, path: string, body?: object): Promise<unknown> {
    const res = await fetch(`${this.api.replace(/\/+$/, '')}/repos/${this.repository}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    if (!res.ok) throw new GitHubRefused(res.status, `GitHub answered ${res.status} to ${method} ${path}`);
    return res.json();
  }

  /** The bot comment starting with the marker, on the first pages of the pull request's comments. */
  async markedComment(pullRequest: number, marker: string): Promise<number | undefined> {
    for (let page = 1; page <= 10; page++) {
      const list = (await this.send(
        'GET',
        `/issues/${pullRequest}/comments?per_page=100&page=${page}`,
      )) as Array<{
        id: number;
        body?: string;
        user?: { type?: string } | null;
      }>;
      const found = list.find((c) => c.user?.type === 'Bot' && c.body?.startsWith(marker + '\n'));
      if (found) return found.id;
      if (list.length < 100) return undefined;
    }
    return undefined;
  }
}
