import type { Logger } from 'pino';
import type { Probot } from 'probot';
import { consolePaths } from '../api/domain/console-links.js';
import type { DeployPublication } from '../api/index.js';
import { publishGateComment, type CommentLease } from './pr-comment.js';

export interface GateCommentHookOptions {
  probot: Probot;
  logger: Logger;
  timeoutMs: number;
  /** PUBLIC_URL, else the server's own URL: the base of the console links. */
  baseUrl: () => string;
  lease: CommentLease;
}

/** The check-run publisher's `comment` step: the pull request comment with the same installation. */
export function gateCommentHook(options: GateCommentHookOptions) {
  const log = options.logger.child({ component: 'pr-comments' });
  return async (
    installationId: number,
    target: { owner: string; repo: string },
    deploy: DeployPublication,
  ) => {
    const octokit = await options.probot.auth(installationId);
    await publishGateComment(octokit, target, deploy, deploy.pullRequest, {
      lease: options.lease,
      log,
      timeoutMs: options.timeoutMs,
      deployUrl: options.baseUrl() + consolePaths.deploy(deploy.result.id),
      // The element pictures' signed links: GitHub's image proxy fetches them without a session.
      thumbnailOf: (issue) => deploy.pictures.get(issue.fingerprint)?.url,
    });
  };
}
