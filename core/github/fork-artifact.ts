/**
 * The `a11y-gate-scan` artifact: what the Action leaves behind in a pull request's workflow run that has
 * no API key (a fork's), and the checks the App applies before it takes anything from it. The artifact is
 * written by code the pull request controls, so every rule here assumes a hostile author.
 * Layout (docs/action.md): `a11y-gate.json` (site, pull request, head sha) and `scan.json` (the scan body).
 */
import { markdownText } from '../text/github-markdown.js';

export const ARTIFACT_NAME = 'a11y-gate-scan';
export const MANIFEST_FILE = 'a11y-gate.json';
export const SCAN_FILE = 'scan.json';
export const ARTIFACT_FORMAT = 'a11y-gate-scan/1';

/** What the Action writes into `a11y-gate.json`. */
export interface ForkManifest {
  format: typeof ARTIFACT_FORMAT;
  site_id: string;
  pull_request: number | null;
  head_sha: string;
}

/**
 * A refusal of an artifact: the reason is shown on the pull request's failed check run (the App) or in the
 * failed step (the Action reading another run's baseline).
 */
export class ArtifactRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ArtifactRefused';
  }
}

export interface ZipLimits {
  /** The zip as downloaded. */
  zipBytes: number;
  /** One entry, uncompressed (declared and as actually inflated). */
  entryBytes: number;
  /** Every entry read, uncompressed. */
  totalBytes: number;
  /** Uncompressed to compressed size, for entries large enough for it to matter. */
  maxRatio: number;
  /** Entries in the zip's central directory. */
  maxEntries: number;
}

/** The artifact may hold what one scan request may: the API's body limit bounds every figure. */
export function zipLimits(bodyBytes: number): ZipLimits {
  return {
    zipBytes: bodyBytes,
    entryBytes: bodyBytes,
    totalBytes: bodyBytes + 64 * 1024,
    maxRatio: 200,
    maxEntries: 16,
  };
}

/** Below this size an entry's ratio is not judged: a short file of repeated text compresses well. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

const mib = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MiB`;

/** Why a zip entry's name is refused (absolute, climbing out with `..`, a drive or a backslash), or undefined. */
export function entryNameRefusal(name: string): string | undefined {
  const shown = JSON.stringify(name.slice(0, 200));
  if (name.length === 0 || name.includes('\0')) return `the zip holds an entry with an invalid name ${shown}`;
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) {
    return `the zip holds an entry with an absolute path ${shown}`;
  }
  if (name.includes('\\')) return `the zip holds an entry with a backslash in its path ${shown}`;
  if (name.split('/').some((segment) => segment === '..')) {
    return `the zip holds an entry that climbs out of the artifact (${shown})`;
  }
  return undefined;
}

/** Why an entry is refused for its declared sizes, before a byte of it is inflated; or undefined. */
export function entrySizeRefusal(
  entry: { name: string; declaredBytes: number; compressedBytes: number },
  limits: ZipLimits,
): string | undefined {
  if (entry.declaredBytes > limits.entryBytes) {
    return `${entry.name} declares ${mib(entry.declaredBytes)} uncompressed, over the limit of ${mib(limits.entryBytes)}`;
  }
  if (entry.declaredBytes >= RATIO_FLOOR_BYTES) {
    const ratio = entry.declaredBytes / Math.max(1, entry.compressedBytes);
    if (ratio > limits.maxRatio) {
      return `${entry.name} would inflate ${Math.round(ratio)} times its compressed size (a zip bomb?); the limit is ${limits.maxRatio}`;
    }
  }
  return undefined;
}

/** Why inflating goes no further: more bytes came out than the entry declared or than the limits allow. */
export function inflatedRefusal(
  entry: { name: string; declaredBytes: number },
  inflatedSoFar: number,
  totalSoFar: number,
  limits: ZipLimits,
): string | undefined {
  if (inflatedSoFar > entry.declaredBytes) {
    return `${entry.name} inflates to more than the ${entry.declaredBytes} bytes it declares`;
  }
  if (inflatedSoFar > limits.entryBytes) return `${entry.name} inflates past ${mib(limits.entryBytes)}`;
  if (totalSoFar > limits.totalBytes) return `the artifact inflates past ${mib(limits.totalBytes)} in all`;
  return undefined;
}

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const SITE_ID = /^[a-z0-9][a-z0-9._-]{0,99}$/;

/** `a11y-gate.json` read as the manifest, or the reason it is not one. */
export function readManifest(value: unknown): ForkManifest {
  const m = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (m.format !== ARTIFACT_FORMAT) {
    throw new ArtifactRefused(`${MANIFEST_FILE} is not an ${ARTIFACT_FORMAT} manifest`);
  }
  if (typeof m.site_id !== 'string' || !SITE_ID.test(m.site_id)) {
    throw new ArtifactRefused(`${MANIFEST_FILE} names no valid site_id`);
  }
  if (typeof m.head_sha !== 'string' || !SHA.test(m.head_sha)) {
    throw new ArtifactRefused(`${MANIFEST_FILE} names no valid head_sha`);
  }
  const pr = m.pull_request;
  if (pr !== null && !(typeof pr === 'number' && Number.isSafeInteger(pr) && pr > 0)) {
    throw new ArtifactRefused(`${MANIFEST_FILE} has an invalid pull_request`);
  }
  return { format: ARTIFACT_FORMAT, site_id: m.site_id, pull_request: pr, head_sha: m.head_sha };
}

/**
 * The commit and pull request come from GitHub (the run's head sha, the pull request GitHub lists for
 * it); the artifact's files must name the same ones, or they were made for another commit.
 */
export function provenanceRefusal(
  manifest: ForkManifest,
  scanSha: unknown,
  github: { headSha: string; pullRequest: number },
): string | undefined {
  const expected = github.headSha.toLowerCase();
  if (manifest.head_sha !== expected) {
    return `${MANIFEST_FILE} names commit ${manifest.head_sha.slice(0, 12)}, but the workflow run is for ${expected.slice(0, 12)}`;
  }
  if (typeof scanSha !== 'string' || scanSha.toLowerCase() !== expected) {
    const named = typeof scanSha === 'string' ? scanSha.slice(0, 12) : 'no commit';
    return `${SCAN_FILE} names ${named}, but the workflow run is for ${expected.slice(0, 12)}`;
  }
  if (manifest.pull_request !== null && manifest.pull_request !== github.pullRequest) {
    return `${MANIFEST_FILE} names pull request #${manifest.pull_request}, but GitHub lists #${github.pullRequest} for the commit`;
  }
  return undefined;
}

/** A pull request as GitHub lists it (the fields the choice reads). */
export interface ListedPullRequest {
  number: number;
  state: string;
  head: { sha: string };
  base: { repo: { full_name: string } };
}

/** The open pull request into `repository` whose head is `headSha`, as GitHub lists them; else undefined. */
export function pullRequestOfRun(
  listed: readonly ListedPullRequest[],
  run: { headSha: string; repository: string },
): ListedPullRequest | undefined {
  return listed
    .filter(
      (p) =>
        p.state === 'open' &&
        p.head.sha.toLowerCase() === run.headSha.toLowerCase() &&
        p.base.repo.full_name.toLowerCase() === run.repository.toLowerCase(),
    )
    .sort((a, b) => a.number - b.number)[0];
}

/**
 * The branch a fork's scan is filed under. Never the fork's own branch name: a fork's `main` would
 * otherwise become the base branch's latest scan, the baseline later pull requests are judged against.
 */
export function forkScanBranch(pullRequest: number): string {
  return `pull/${pullRequest}/head`;
}

/**
 * The summary of the refusal's check run. The reason may quote the artifact (a zip entry's name, the scan's
 * own words), so it goes in as text that cannot become markup, a link or a mention.
 */
export function refusalSummary(reason: string): string {
  return [
    `a11y-gate did not take the \`${ARTIFACT_NAME}\` artifact of this pull request's workflow run: ${markdownText(reason)}.`,
    '',
    'Nothing was stored and the gate was not run. The artifact is written by the a11y-gate Action in the ' +
      "pull request's workflow when it has no API key; re-run that workflow with an unmodified Action to try again.",
  ].join('\n');
}
