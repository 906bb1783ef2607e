import type { ScanOptions } from '../scanner/options.js';
import { parseScanSettings, scopeSetting } from '../scanner/settings.js';
import type { ScanScope } from '../core/gate/coverage.js';
import { claimsOf, mergeGroupOf, pullRequestOf, readEvent, type GitHubEvent } from './github-event.js';
import type { Claim } from '../core/claims/deploy-claims.js';
import {
  fitLocalInputs,
  gateModeInputs,
  localGateInputs,
  type GateMode,
  type LocalGateInputs,
} from './gate-mode.js';
import { modeInput, shardGroup } from './shard-inputs.js';

/** Every input of action.yml, parsed and validated, plus what the run takes from the GitHub environment. */
export interface ActionInputs {
  /** Who judges the scan: the service, this step against a baseline, or the GitHub App (gate-mode.ts). */
  gateMode: GateMode;
  /** The service's address and key: empty unless `gateMode` is `service` (`apiUrl` also as given to `app`). */
  apiUrl: string;
  apiKey: string;
  /** Where the gate without a service finds its baseline, and whether this run records it. */
  local: LocalGateInputs;
  siteId: string;
  sha: string;
  results: string | null;
  url: string | null;
  failOnCritical: boolean;
  /** null: the input was left empty, so the site's gate settings (then the service default) decide. */
  failOnSerious: boolean | null;
  maxNewIssues: number | null;
  repository: string | null;
  failOnError: boolean;
  /** false: submit the scan only, without asking the gate (a step that records the base branch). */
  gate: boolean;
  /** The branch the results were produced on (pull request head branch, else the pushed branch). */
  branch: string | null;
  /** The git ref sent with the trigger: the PR head branch as `refs/heads/…`, else GITHUB_REF. */
  ref: string | null;
  runId: string | null;
  runAttempt: number | null;
  /** First retry delay; `A11Y_GATE_RETRY_DELAY_MS` lowers it (tests, or a service on the same runner). */
  retryDelayMs: number | null;
  /** Pages to scan in a browser and how (`urls`, `sitemap`, `urls-file`, `crawl`…); null: no scan. */
  scan: ScanOptions | null;
  /** What the scan sent covers (`scope`; partial with `urls-file` unless it says full). */
  scope: ScanScope;
  /** Where each scanned page's raw axe-core result is written. */
  resultsDir: string | null;
  /** Where the SARIF 2.1.0 report of the scanned pages is written. */
  sarif: string | null;
  /**
   * Set when the GitHub App judges (`gateMode` `app`, as a pull request's run without an API key does): the
   * scan is left as the `a11y-gate-scan` artifact instead of being submitted (action/hand-off.ts).
   */
  handOff: { pullRequest: number | null } | null;
  /** The pull request the run is about (sent with the trigger: the App comments there). */
  pullRequest: number | null;
  /** The fixes the pull request's description claims, sent with the trigger. */
  claims: Claim[];
  /** On a merge group: its base commit, compared with (else the base branch's latest scan). */
  baselineSha: string | null;
  /** `comment`: true / false, or null (auto: when no GitHub App posts this site's results). */
  comment: boolean | null;
  /** The workflow's token, for the comment without the App. */
  githubToken: string | null;
  /** `complete`: the final job of a sharded run; `scanGroup`: the key its jobs share (null: not sharded). */
  mode: 'scan' | 'complete';
  scanGroup: string | null;
}

/** A bad input: the message always names the input. */
export class InputError extends Error {
  constructor(
    readonly input: string,
    message: string,
  ) {
    super(`Input "${input}" ${message}`);
    this.name = 'InputError';
  }
}

export type GetInput = (name: string) => string;

const fail = (input: string, message: string) => new InputError(input, message);

const SITE_ID = /^[a-z0-9][a-z0-9._-]{0,99}$/;
const SHA = /^[0-9a-fA-F]{7,64}$/;
const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const TRUE = ['true', 'True', 'TRUE'];
const FALSE = ['false', 'False', 'FALSE'];

function required(get: GetInput, name: string): string {
  const value = get(name).trim();
  if (!value) throw new InputError(name, 'is required');
  return value;
}

function optional(get: GetInput, name: string): string | null {
  const value = get(name).trim();
  return value ? value : null;
}

/** YAML 1.2 core-schema booleans, like core.getBooleanInput, but with a default when the input is empty. */
function boolean<T extends boolean | null>(get: GetInput, name: string, fallback: T): boolean | T {
  const value = get(name).trim();
  if (!value) return fallback;
  if (TRUE.includes(value)) return true;
  if (FALSE.includes(value)) return false;
  throw new InputError(name, `must be true or false, got "${value}"`);
}

function httpUrl(name: string, value: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new InputError(name, `must be an absolute http(s) URL, got "${value}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InputError(name, `must be an http(s) URL, got "${value}"`);
  }
  return parsed;
}

/** The service's base URL: a trailing slash or `/api/v1` suffix is accepted and dropped. */
function apiBase(value: string): string {
  const parsed = httpUrl('api-url', value);
  if (parsed.search || parsed.hash) throw new InputError('api-url', 'must not have a query or fragment');
  // fetch refuses such a URL with an error quoting it, password and all; the API key is the credential.
  if (parsed.username || parsed.password) {
    throw new InputError(
      'api-url',
      'must not contain a user name or password (the API key is the credential)',
    );
  }
  return parsed.href.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
}

/** The `max-new-issues` input: a non-negative integer, or null when not given. */
function maxNewIssuesInput(get: GetInput): number | null {
  const maxText = optional(get, 'max-new-issues');
  if (maxText === null) return null;
  if (!/^\d+$/.test(maxText)) {
    throw new InputError('max-new-issues', `must be a non-negative integer, got "${maxText}"`);
  }
  const maxNewIssues = Number(maxText);
  if (!Number.isSafeInteger(maxNewIssues)) throw new InputError('max-new-issues', 'is too large');
  return maxNewIssues;
}

/** The branch the scan belongs to and the ref the gate names, from the run's environment and event. */
function branchAndRef(
  env: NodeJS.ProcessEnv,
  event: GitHubEvent,
  triggeringRun: GitHubEvent['workflow_run'],
): { branch: string | null; ref: string | null } {
  // GITHUB_HEAD_REF is set only on pull_request events; elsewhere only a branch push names a branch
  // (a tag push's GITHUB_REF_NAME is the tag).
  // A merge queue's commit is on its own branch (gh-readonly-queue/…), which the event names.
  const queued = env.GITHUB_EVENT_NAME === 'merge_group' ? event.merge_group?.head_ref : undefined;
  if (queued) return { branch: queued.replace(/^refs\/heads\//, ''), ref: queued };
  const pushedBranch = env.GITHUB_REF?.startsWith('refs/heads/')
    ? env.GITHUB_REF.slice('refs/heads/'.length)
    : null;
  const headBranch = env.GITHUB_HEAD_REF || triggeringRun?.head_branch || null;
  const branch = headBranch || event.pull_request?.head?.ref || pushedBranch || null;
  const ref = headBranch ? `refs/heads/${headBranch}` : env.GITHUB_REF || null;
  return { branch, ref };
}

/** The pull request of the run, how its comment is written without the App, a merge group's base. */
function eventInputs(get: GetInput, env: NodeJS.ProcessEnv, event: GitHubEvent) {
  return {
    baselineSha: mergeGroupOf(env, event)?.baseSha?.toLowerCase() ?? null,
    pullRequest: pullRequestOf(env, event),
    claims: claimsOf(env, event),
    comment: boolean(get, 'comment', null),
    githubToken: optional(get, 'github-token'),
  };
}

function gateInput(
  get: (name: string) => string,
  results: string | null,
  scan: unknown,
  mode: ActionInputs['mode'],
): boolean {
  const gate = boolean(get, 'gate', true) ?? true;
  if (!gate && !results && !scan && mode === 'scan') {
    throw new InputError('gate', 'is false, so the step only submits: give "results" or pages to scan');
  }
  return gate;
}

/** A whole number from the environment, else null. */
const count = (text: string | undefined) => (text && /^\d+$/.test(text) ? Number(text) : null);

function handOffOf(
  get: GetInput,
  event: GitHubEvent,
  results: string | null,
  scan: unknown,
): ActionInputs['handOff'] {
  if (!results && !scan) {
    throw get('gate-mode').trim()
      ? new InputError(
          'gate-mode',
          'is "app", but there is nothing to hand to the GitHub App: give "results" or pages to scan',
        )
      : new InputError(
          'api-key',
          'is empty, as it is on pull requests from forks, and there is nothing to hand to the GitHub App instead: give "results" or pages to scan (docs/action.md)',
        );
  }
  const n = event.pull_request?.number;
  return { pullRequest: typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null };
}

export function parseInputs(get: GetInput, env: NodeJS.ProcessEnv = process.env): ActionInputs {
  const { gateMode, apiUrlText, apiKey } = gateModeInputs(get, env, fail);
  const apiUrl = apiUrlText ? apiBase(apiUrlText) : '';
  const siteId = required(get, 'site-id');
  if (!SITE_ID.test(siteId)) {
    throw new InputError(
      'site-id',
      'must be 1-100 characters of a-z, 0-9, ".", "_" or "-", starting with a letter or digit',
    );
  }

  const event = readEvent(env);
  // On workflow_run (how fork pull requests get the secrets: scan in the PR's workflow, gate in this one)
  // GITHUB_SHA and GITHUB_REF name the default branch; the commit being judged is the triggering run's head.
  // Taking GITHUB_SHA there would file the PR's results as a scan of the default branch: its baseline.
  const triggeringRun = env.GITHUB_EVENT_NAME === 'workflow_run' ? event.workflow_run : undefined;
  // On pull_request events GITHUB_SHA is the merge commit; the PR head is the commit being judged (on a
  // merge queue, the merge group's head).
  const sha =
    optional(get, 'sha') ??
    mergeGroupOf(env, event)?.headSha ??
    event.pull_request?.head?.sha ??
    triggeringRun?.head_sha ??
    env.GITHUB_SHA ??
    null;
  if (!sha) throw new InputError('sha', 'is required outside GitHub Actions (GITHUB_SHA is not set)');
  if (!SHA.test(sha)) throw new InputError('sha', `must be a hex commit sha (7-64 characters), got "${sha}"`);

  const results = optional(get, 'results');
  const scan = parseScanSettings(get, (name, problem) => new InputError(name, problem));
  const mode = modeInput(get, results, scan, fail);
  fitLocalInputs(gateMode, { results, scan, mode }, fail);
  // The checkout is where the findings' files are: located by default.
  if (scan && !scan.sourceRoot && env.GITHUB_WORKSPACE) scan.sourceRoot = env.GITHUB_WORKSPACE;
  const url = optional(get, 'url');
  if (url) httpUrl('url', url);

  const maxNewIssues = maxNewIssuesInput(get);

  const repository = optional(get, 'repository') ?? env.GITHUB_REPOSITORY ?? null;
  if (repository && !REPOSITORY.test(repository)) {
    throw new InputError('repository', `must be "owner/name", got "${repository}"`);
  }

  const { branch, ref } = branchAndRef(env, event, triggeringRun);

  return {
    gateMode,
    apiUrl,
    apiKey,
    local: localGateInputs(get, env, event),
    siteId,
    sha: sha.toLowerCase(),
    results,
    url,
    failOnCritical: boolean(get, 'fail-on-critical', true),
    failOnSerious: boolean(get, 'fail-on-serious', null),
    maxNewIssues,
    repository,
    failOnError: boolean(get, 'fail-on-error', true),
    gate: gateInput(get, results, scan, mode),
    branch,
    ref,
    runId: env.GITHUB_RUN_ID || null,
    runAttempt: count(env.GITHUB_RUN_ATTEMPT),
    retryDelayMs: count(env.A11Y_GATE_RETRY_DELAY_MS),
    scan,
    scope: scan?.scope ?? scopeSetting(get, (name, problem) => new InputError(name, problem), null),
    resultsDir: optional(get, 'results-dir'),
    sarif: optional(get, 'sarif'),
    handOff: gateMode === 'app' ? handOffOf(get, event, results, scan) : null,
    ...eventInputs(get, env, event),
    mode,
    scanGroup: shardGroup(get, env, { mode, scan, sha: sha.toLowerCase() }, fail),
  };
}
