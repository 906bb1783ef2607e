import type { Probot } from 'probot';
import type { GitHubApp } from '../api/index.js';

/**
 * Asks GitHub, as the App, which installation a repository belongs to (`GET /repos/:owner/:repo/installation`),
 * so the API can refuse a site's `repository` that no installation linked to its org covers.
 */
export function githubInstallations(probot: Probot, timeoutMs: number): Pick<GitHubApp, 'installationOf'> {
  return {
    async installationOf(repository) {
      const [owner, repo] = repository.split('/');
      const octokit = await probot.auth();
      try {
        const { data } = await octokit.rest.apps.getRepoInstallation({
          owner,
          repo,
          request: { signal: AbortSignal.timeout(timeoutMs) },
        });
        return data.id;
      } catch (err) {
        if ((err as { status?: number }).status === 404) return undefined;
        throw err;
      }
    },
  };
}
