import * as core from '@actions/core';
import { getOctokit } from '@actions/github';
import { readZipFiles } from '../core/github/artifact-zip.js';
import { ArtifactRefused, zipLimits } from '../core/github/fork-artifact.js';
import {
  BASELINE_MAX_BYTES,
  BaselineFileError,
  baselineText,
  parseBaseline,
  type BaselineEntry,
} from '../scanner/baseline-file.js';
import { leaveArtifact } from './artifacts.js';
import { RECORDING_EVENTS } from './gate-mode.js';
import type { ActionInputs } from './inputs.js';

/**
 * The baseline as an artifact of the baseline branch's runs, for the gate without a service when no
 * baseline file is committed: each run on that branch leaves its issues as `a11y-gate-baseline-<site>`
 * (one `baseline.json`, the baseline file's format), and every other run takes the one of the branch's
 * latest successful run. That artifact was written by another run, so it is read as untrusted: GitHub's
 * own figures bound the download, the kernel's zip reader its contents, the baseline file's schema the
 * JSON.
 */

export const BASELINE_ARTIFACT_FILE = 'baseline.json';

/** One artifact per site, so that a run gating several sites leaves one baseline for each. */
export function baselineArtifactName(siteId: string): string {
  return `a11y-gate-baseline-${siteId}`;
}

/** Candidates whose run is looked at, newest first, before the search gives up. */
const RUNS_LOOKED_AT = 10;
const REQUEST_MS = 30_000;

/** The baseline could not be read from the artifact, or GitHub could not be asked for it. */
export class BaselineArtifactError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BaselineArtifactError';
  }
}

/** What was found: the entries, the run that left them and the commit it ran at. */
export interface FoundBaseline {
  entries: BaselineEntry[];
  runId: number;
  sha: string | null;
}

/** Leaves this run's issues as the baseline artifact; answers where they went. */
export async function recordBaselineArtifact(
  inputs: ActionInputs,
  entries: readonly BaselineEntry[],
): Promise<string> {
  const { where } = await leaveArtifact(baselineArtifactName(inputs.siteId), [
    { name: BASELINE_ARTIFACT_FILE, text: baselineText(entries) },
  ]);
  return where;
}

type Octokit = ReturnType<typeof getOctokit>;
const request = () => ({ signal: AbortSignal.timeout(REQUEST_MS) });

/** The HTTP status of an Octokit error, if it has one. */
function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** A GitHub request that failed, said in the step's words (a refused token is named as such). */
function githubError(what: string, err: unknown): BaselineArtifactError {
  const status = statusOf(err);
  const why =
    status === 403 || status === 404
      ? `GitHub answered ${status}: the workflow's token needs "actions: read" (the job's permissions)`
      : err instanceof Error
        ? err.message
        : String(err);
  return new BaselineArtifactError(`Could not ${what}: ${why}.`);
}

/**
 * The baseline artifact of the baseline branch's latest successful run in this repository (never a fork's,
 * never this run's), or null when there is none. A run that failed is not a baseline: its issues were
 * not accepted.
 */
export async function findBaselineArtifact(
  inputs: ActionInputs,
  env: NodeJS.ProcessEnv = process.env,
): Promise<FoundBaseline | null> {
  if (!inputs.repository || !inputs.githubToken) {
    core.notice(
      `No ${inputs.repository ? '"github-token"' : 'repository'}: the baseline of ${inputs.local.baselineBranch} was not looked for.`,
    );
    return null;
  }
  const [owner, repo] = inputs.repository.split('/');
  const octokit = getOctokit(inputs.githubToken, { baseUrl: env.GITHUB_API_URL || 'https://api.github.com' });
  const name = baselineArtifactName(inputs.siteId);
  const branch = inputs.local.baselineBranch;
  let listed;
  try {
    listed = await octokit.rest.actions.listArtifactsForRepo({
      owner,
      repo,
      name,
      per_page: 100,
      request: request(),
    });
  } catch (err) {
    throw githubError(`list the artifacts named ${name}`, err);
  }
  const candidates = listed.data.artifacts
    .filter(
      (a) =>
        a.name === name &&
        !a.expired &&
        a.workflow_run?.head_branch === branch &&
        a.workflow_run.head_repository_id === a.workflow_run.repository_id &&
        String(a.workflow_run.id) !== env.GITHUB_RUN_ID,
    )
    .sort((a, b) => Date.parse(b.created_at ?? '') - Date.parse(a.created_at ?? ''))
    .slice(0, RUNS_LOOKED_AT);
  for (const artifact of candidates) {
    const runId = artifact.workflow_run!.id!;
    let run;
    try {
      run = (await octokit.rest.actions.getWorkflowRun({ owner, repo, run_id: runId, request: request() }))
        .data;
    } catch (err) {
      throw githubError(`read workflow run ${runId}`, err);
    }
    if (run.conclusion !== 'success' || run.head_branch !== branch || !RECORDING_EVENTS.includes(run.event))
      continue;
    const zip = await download(octokit, { owner, repo }, artifact, runId);
    return { entries: await readBaselineZip(zip, name, runId), runId, sha: run.head_sha };
  }
  return null;
}

const LIMITS = zipLimits(BASELINE_MAX_BYTES);

/**
 * GitHub answers the download with a redirect to a short-lived storage URL, which carries its own
 * signature: it is fetched without the token. The zip may be no larger than GitHub says the artifact is,
 * nor than a baseline file may be.
 */
async function download(
  octokit: Octokit,
  where: { owner: string; repo: string },
  artifact: { id: number; size_in_bytes: number },
  runId: number,
): Promise<Buffer> {
  const refused = (reason: string) =>
    new BaselineArtifactError(`The baseline artifact of run ${runId} was refused: ${reason}.`);
  if (artifact.size_in_bytes > LIMITS.zipBytes) {
    throw refused(`its zip is ${artifact.size_in_bytes} bytes, over the limit of ${LIMITS.zipBytes}`);
  }
  let location: string | undefined;
  try {
    const res = await octokit.rest.actions.downloadArtifact({
      ...where,
      artifact_id: artifact.id,
      archive_format: 'zip',
      request: { ...request(), redirect: 'manual' },
    });
    location = (res.headers as Record<string, string | undefined>).location;
  } catch (err) {
    throw githubError(`download the baseline artifact of run ${runId}`, err);
  }
  if (!location?.startsWith('https://')) {
    throw new BaselineArtifactError(
      `GitHub answered the download of run ${runId}'s baseline with no https location.`,
    );
  }
  const res = await fetch(location, request());
  if (!res.ok)
    throw new BaselineArtifactError(
      `The artifact storage answered ${res.status} for run ${runId}'s baseline.`,
    );
  const most = artifact.size_in_bytes;
  const more = (bytes: number) => refused(`its zip is ${bytes} bytes, more than the ${most} GitHub lists`);
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > most) throw more(declared);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > most) throw more(bytes.length);
  return bytes;
}

/** `baseline.json` from the zip, read as a baseline file; anything else in it is refused with its reason. */
async function readBaselineZip(zip: Buffer, name: string, runId: number): Promise<BaselineEntry[]> {
  try {
    const files = await readZipFiles(zip, LIMITS, { artifact: name, files: [BASELINE_ARTIFACT_FILE] });
    const text = (files.get(BASELINE_ARTIFACT_FILE) ?? Buffer.alloc(0)).toString('utf8');
    return parseBaseline(text, `${BASELINE_ARTIFACT_FILE} of run ${runId}`);
  } catch (err) {
    if (err instanceof ArtifactRefused || err instanceof BaselineFileError) {
      throw new BaselineArtifactError(`The baseline artifact of run ${runId} was refused: ${err.message}.`);
    }
    throw err;
  }
}
