import type { Context } from 'probot';
import type { ForkRun, ForkScanOutcome } from '../api/index.js';
import {
  ARTIFACT_NAME,
  ArtifactRefused,
  pullRequestOfRun,
  refusalSummary,
  type ListedPullRequest,
  zipLimits,
  type ZipLimits,
} from '../core/github/fork-artifact.js';
import { readArtifactZip, type ArtifactFiles } from './artifact-zip.js';
import { checkRunName } from './check-run-payload.js';
import { describe, withDeadline } from './github-requests.js';

/**
 * Pull requests from forks get no secrets, so their workflow's Action leaves its scan as the artifact
 * `a11y-gate-scan` instead of submitting it. When that run completes, the App fetches the artifact with
 * its own installation token and gates the scan (docs/github-app.md, "Pull requests from forks").
 */
export interface ForkFlow {
  /** The org an installation is linked to; none: nothing is taken from or posted to its repositories. */
  installationOrg(installationId: number): Promise<string | undefined>;
  /** Submits the scan and runs the gate (api/services/github/fork-scans.ts). */
  gate(run: ForkRun, files: ArtifactFiles): Promise<ForkScanOutcome | undefined>;
  /** The API's body limit: an artifact may hold what one scan request may (zipLimits). */
  bodyLimitBytes: number;
  timeoutMs: number;
}

type RunContext = Context<'workflow_run.completed'>;
type Octokit = RunContext['octokit'];

/** The name a refusal's check run has when the artifact named no site the server knows for the repository. */
const UNNAMED_CHECK = 'a11y-gate / pull request scan';

export async function handleCompletedRun(context: RunContext, flow: ForkFlow): Promise<void> {
  const { workflow_run: wr, repository, installation } = context.payload;
  if (wr.event !== 'pull_request' || !installation) return;
  const log = context.log.child({ repository: repository.full_name, run: wr.id });
  const org = await flow.installationOrg(installation.id);
  if (!org) {
    log.info({ installation: installation.id }, 'workflow run of an installation linked to no org; ignored');
    return;
  }
  const { owner, repo } = context.repo();
  const octokit = context.octokit;
  const artifact = await findArtifact(octokit, { owner, repo, runId: wr.id }, flow.timeoutMs);
  if (!artifact) {
    log.debug('workflow run left no a11y-gate-scan artifact; ignored');
    return;
  }
  const headSha = wr.head_sha.toLowerCase();
  const limits = zipLimits(flow.bodyLimitBytes);
  const refuse = (siteId: string | null, reason: string) =>
    postRefusal(octokit, { owner, repo, headSha, siteId, reason }, flow.timeoutMs);
  let files: ArtifactFiles;
  try {
    if (artifact.size_in_bytes > limits.zipBytes) {
      throw new ArtifactRefused(
        `the artifact is ${artifact.size_in_bytes} bytes, over the limit of ${limits.zipBytes}`,
      );
    }
    const zip = await downloadArtifact(octokit, { owner, repo, id: artifact.id }, limits, flow.timeoutMs);
    files = await readArtifactZip(zip, limits);
  } catch (err) {
    if (!(err instanceof ArtifactRefused)) throw err;
    log.warn({ reason: err.reason }, 'a11y-gate-scan artifact refused');
    return refuse(null, err.reason);
  }
  const head = { owner: wr.head_repository.owner?.login ?? owner, branch: wr.head_branch };
  const pull = await pullRequestFor(octokit, { owner, repo, headSha, head }, flow.timeoutMs);
  if (!pull) {
    log.info({ sha: headSha }, 'GitHub lists no open pull request for the run; nothing to gate');
    return refuse(null, `GitHub lists no open pull request of ${repository.full_name} for commit ${headSha}`);
  }
  const outcome = await flow.gate(
    { installationId: installation.id, repository: repository.full_name, headSha, pullRequest: pull.number },
    files,
  );
  if (outcome?.status === 'refused') return refuse(outcome.siteId, outcome.reason);
  if (outcome) log.info({ deployId: outcome.deployId, pull: pull.number }, 'fork pull request gated');
}

async function findArtifact(
  octokit: Octokit,
  r: { owner: string; repo: string; runId: number },
  timeoutMs: number,
) {
  const { data } = await withDeadline(timeoutMs, (signal) =>
    octokit.rest.actions.listWorkflowRunArtifacts({
      owner: r.owner,
      repo: r.repo,
      run_id: r.runId,
      name: ARTIFACT_NAME,
      per_page: 100,
      request: { signal },
    }),
  );
  return data.artifacts.find((a) => a.name === ARTIFACT_NAME && !a.expired);
}

/**
 * GitHub answers the download with a redirect to a short-lived storage URL. The redirect is not followed
 * with the installation token: the storage URL carries its own signature, and the token stays with GitHub.
 */
async function downloadArtifact(
  octokit: Octokit,
  a: { owner: string; repo: string; id: number },
  limits: ZipLimits,
  timeoutMs: number,
): Promise<Buffer> {
  const res = await withDeadline(timeoutMs, (signal) =>
    octokit.rest.actions.downloadArtifact({
      owner: a.owner,
      repo: a.repo,
      artifact_id: a.id,
      archive_format: 'zip',
      request: { signal, redirect: 'manual' },
    }),
  );
  const location = (res.headers as Record<string, string | undefined>).location;
  if (!location || !location.startsWith('https://')) {
    throw new Error(`GitHub answered the artifact download with ${res.status} and no https location`);
  }
  return withDeadline(timeoutMs, async (signal) => {
    const zip = await fetch(location, { signal });
    if (!zip.ok || !zip.body) throw new Error(`the artifact's storage answered ${zip.status}`);
    const declared = Number(zip.headers.get('content-length') ?? 0);
    const over = () =>
      new ArtifactRefused(`the artifact's zip is over the limit of ${limits.zipBytes} bytes`);
    if (declared > limits.zipBytes) throw over();
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    const reader: ReadableStreamDefaultReader<Uint8Array> = zip.body.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      bytes += part.value.length;
      if (bytes > limits.zipBytes) {
        await reader.cancel();
        throw over();
      }
      chunks.push(part.value);
    }
    return Buffer.concat(chunks);
  });
}

/**
 * The open pull request GitHub lists for the head sha. The commit's own list is asked first; for a fork
 * it is often empty (the commit lives in the fork until the pull request is merged), so GitHub's open
 * pull requests from the fork's branch are asked next. Either way the answer is GitHub's, never the
 * artifact's.
 */
async function pullRequestFor(
  octokit: Octokit,
  q: { owner: string; repo: string; headSha: string; head: { owner: string; branch: string | null } },
  timeoutMs: number,
): Promise<ListedPullRequest | undefined> {
  const run = { headSha: q.headSha, repository: `${q.owner}/${q.repo}` };
  const { data: ofCommit } = await withDeadline(timeoutMs, (signal) =>
    octokit.rest.repos.listPullRequestsAssociatedWithCommit({
      owner: q.owner,
      repo: q.repo,
      commit_sha: q.headSha,
      per_page: 100,
      request: { signal },
    }),
  );
  const found = pullRequestOfRun(ofCommit, run);
  if (found || !q.head.branch) return found;
  const { data: ofBranch } = await withDeadline(timeoutMs, (signal) =>
    octokit.rest.pulls.list({
      owner: q.owner,
      repo: q.repo,
      state: 'open',
      head: `${q.head.owner}:${q.head.branch}`,
      per_page: 100,
      request: { signal },
    }),
  );
  return pullRequestOfRun(ofBranch, run);
}

/**
 * A failed check run on the head sha that says why the pull request's scan was not taken. Not `neutral`:
 * GitHub counts a neutral check as passing, so a required check would let a poisoned artifact through.
 */
async function postRefusal(
  octokit: Octokit,
  r: { owner: string; repo: string; headSha: string; siteId: string | null; reason: string },
  timeoutMs: number,
): Promise<void> {
  try {
    await withDeadline(timeoutMs, (signal) =>
      octokit.rest.checks.create({
        owner: r.owner,
        repo: r.repo,
        name: r.siteId ? checkRunName(r.siteId) : UNNAMED_CHECK,
        head_sha: r.headSha,
        status: 'completed',
        conclusion: 'failure',
        completed_at: new Date().toISOString(),
        output: {
          title: 'The scan of this pull request was refused',
          summary: refusalSummary(r.reason),
        },
        request: { signal },
      }),
    );
  } catch (err) {
    throw new Error(`posting the refusal's check run failed: ${describe(err)}`, { cause: err });
  }
}
