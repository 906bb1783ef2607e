import path from 'node:path';
import { DEFAULT_BASELINE } from '../scanner/baseline-file.js';
import type { ScanOptions } from '../scanner/options.js';
import { picturesWhereShown } from '../scanner/screenshots.js';
import type { GitHubEvent } from './github-event.js';

/**
 * Who judges the scan (docs/action.md, "Who judges the scan"): the a11y-gate service (`service`), the
 * step itself against a baseline without any service (`local`), or the a11y-gate GitHub App, to which a
 * pull request's run hands its scan as an artifact (`app`). Left empty, a step given `api-url` or
 * `api-key` uses the service (and hands over on a pull request without a key, as a fork's run has none),
 * and a step given neither gates locally.
 */
export type GateMode = 'service' | 'local' | 'app';

type GetInput = (name: string) => string;
type Fail = (input: string, message: string) => Error;

const MODES: readonly GateMode[] = ['service', 'local', 'app'];

/** Runs that record the baseline on the baseline branch: what lands there, not what is proposed to it. */
export const RECORDING_EVENTS = ['push', 'workflow_dispatch', 'schedule'];

export interface GateModeInputs {
  gateMode: GateMode;
  /** The service's address, without `/api/v1`; empty when the mode needs none. */
  apiUrlText: string | null;
  apiKey: string;
}

/** The mode, and the service's address and key as far as the mode needs them. */
export function gateModeInputs(get: GetInput, env: NodeJS.ProcessEnv, fail: Fail): GateModeInputs {
  const given = get('gate-mode').trim();
  if (given && !(MODES as readonly string[]).includes(given)) {
    throw fail('gate-mode', `must be "service", "local" or "app", got "${given}"`);
  }
  const key = get('api-key').trim();
  const urlText = get('api-url').trim() || null;
  const pullRequest = env.GITHUB_EVENT_NAME === 'pull_request';
  let mode = (given || (urlText || key ? 'service' : 'local')) as GateMode;
  // GitHub passes no secrets to a fork's pull request: the service's step hands its scan to the App.
  if (mode === 'service' && !key && pullRequest) mode = 'app';
  if (mode === 'app' && !pullRequest) {
    throw fail(
      'gate-mode',
      `is "app", which hands a pull request's scan to the GitHub App, but this run is a ${env.GITHUB_EVENT_NAME || 'run outside GitHub Actions'} event: gate with "api-url" or without a service ("local")`,
    );
  }
  if (mode !== 'service') return { gateMode: mode, apiUrlText: mode === 'app' ? urlText : null, apiKey: '' };
  if (!urlText) throw fail('api-url', 'is required');
  if (!key) throw fail('api-key', 'is required');
  if (/\s/.test(key)) throw fail('api-key', 'must not contain whitespace');
  return { gateMode: mode, apiUrlText: urlText, apiKey: key };
}

/**
 * What the gate without a service cannot do (judge nothing, or a sharded run's one scan), and what it
 * leaves out: element pictures, which only the service shows.
 */
export function fitLocalInputs(
  gateMode: GateMode,
  given: { results: string | null; scan: ScanOptions | null; mode: 'scan' | 'complete' },
  fail: Fail,
): void {
  if (gateMode !== 'local') return;
  if (given.mode === 'complete' || given.scan?.shard) {
    throw fail(
      given.mode === 'complete' ? 'mode' : 'shard',
      'needs the service (api-url): the shards of a run add up to one scan there; without one, scan in one job',
    );
  }
  if (!given.results && !given.scan) {
    throw fail(
      'api-url',
      'is empty, so the step gates without a service: give pages to scan ("urls", "sitemap" or "urls-file") or "results" to judge',
    );
  }
  if (given.scan) {
    given.scan.screenshots = picturesWhereShown(given.scan.screenshots, { service: false, report: false });
  }
}

/** Where the gate without a service finds its baseline, and whether this run records the next one. */
export interface LocalGateInputs {
  /** The committed baseline file (`baseline`), resolved in the workspace. */
  baselineFile: string;
  /** The branch whose runs record the baseline and whose latest successful run others are compared with. */
  baselineBranch: string;
  /** This run is on the baseline branch (a push, a manual or a scheduled run): it records the baseline. */
  records: boolean;
}

export function localGateInputs(get: GetInput, env: NodeJS.ProcessEnv, event: GitHubEvent): LocalGateInputs {
  const file = get('baseline').trim() || DEFAULT_BASELINE;
  const baselineBranch =
    get('baseline-branch')
      .trim()
      .replace(/^refs\/heads\//, '') ||
    event.repository?.default_branch ||
    'main';
  return {
    baselineFile: path.resolve(env.GITHUB_WORKSPACE || process.cwd(), file),
    baselineBranch,
    records:
      RECORDING_EVENTS.includes(env.GITHUB_EVENT_NAME ?? '') &&
      env.GITHUB_REF === `refs/heads/${baselineBranch}`,
  };
}
