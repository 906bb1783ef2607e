import type { ApiContext } from '../../context.js';
import { DomainError } from '../../domain/errors.js';
import {
  ArtifactRefused,
  forkScanBranch,
  MANIFEST_FILE,
  provenanceRefusal,
  readManifest,
  SCAN_FILE,
} from '../../../core/github/fork-artifact.js';
import type { ScanPageInput } from '../../domain/scans/input.js';
import { CreateScanBody } from '../../schemas/scans/scans.js';
import { getSite } from '../../store/sites/sites.js';
import { triggerGate } from '../gate/triggers.js';
import { ingestScan, type PageSource } from '../scans/scans.js';
import { orgOfInstallation } from './installations.js';

/** A pull request's workflow run, as GitHub describes it (never as the artifact does). */
export interface ForkRun {
  installationId: number;
  /** The base repository, `owner/name`, where the run ran and where the check run goes. */
  repository: string;
  headSha: string;
  /** The open pull request GitHub lists for the head sha. */
  pullRequest: number;
}

/** The artifact's two files, read from the zip (still untrusted). */
export interface ForkArtifactFiles {
  manifest: Buffer;
  scan: Buffer;
}

export type ForkScanOutcome =
  | { status: 'gated'; org: string; siteId: string; scanId: string; deployId: string }
  /** Refused: nothing stored; the reason goes on a neutral check run named for `siteId` when known. */
  | { status: 'refused'; siteId: string | null; reason: string };

function parseJson(bytes: Buffer, file: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    throw new ArtifactRefused(`${file} is not JSON`);
  }
}

function pageSource(pages: ScanPageInput[]): PageSource {
  return {
    count: pages.length,
    mayHavePa11y: pages.some((p) => p.pa11y !== undefined),
    *[Symbol.iterator]() {
      for (let index = 0; index < pages.length; index++) yield { index, page: pages[index] };
    },
  };
}

/** The scan body with everything but scan data replaced by what GitHub says. */
function scanBody(bytes: Buffer, run: ForkRun, siteId: string): CreateScanBody {
  const parsed = CreateScanBody.safeParse(parseJson(bytes, SCAN_FILE));
  if (!parsed.success) {
    const first = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
    throw new ArtifactRefused(`${SCAN_FILE} is not a valid scan (${first.join('; ')})`);
  }
  return {
    ...parsed.data,
    siteId,
    sha: run.headSha.toLowerCase(),
    branch: forkScanBranch(run.pullRequest),
    // An open scan would wait for parts that never come.
    complete: true,
  };
}

/** The site the manifest names, if it is the org's and bound to the run's repository. */
async function boundSite(ctx: ApiContext, org: string, siteId: string, repository: string) {
  const site = await getSite(ctx.db, org, siteId);
  if (!site?.repository || site.repository.toLowerCase() !== repository.toLowerCase()) {
    throw new ArtifactRefused(
      `the artifact names site "${siteId}", which is not a site of this server bound to ${repository}`,
    );
  }
  return site;
}

/**
 * Takes a fork pull request's scan from its artifact and gates it, as the Action would with a key: the
 * scan for the site bound to the run's repository (through the installation's org), then the gate for
 * the head sha against the site's base branch with the site's own thresholds. The deploy event is an
 * ordinary one, so the App's check-run publisher posts it. Only scan data comes from the artifact: the
 * commit, the pull request and the repository come from GitHub, the thresholds from the site.
 * Answers `undefined` when the installation is linked to no org (nothing may be posted there).
 */
export async function gateForkScan(
  ctx: ApiContext,
  run: ForkRun,
  files: ForkArtifactFiles,
): Promise<ForkScanOutcome | undefined> {
  const org = await orgOfInstallation(ctx, run.installationId);
  if (!org) return undefined;
  let siteId: string | null = null;
  try {
    const manifest = readManifest(parseJson(files.manifest, MANIFEST_FILE));
    const site = await boundSite(ctx, org, manifest.site_id, run.repository);
    siteId = site.siteId;
    const body = scanBody(files.scan, run, site.siteId);
    const scanSha = (parseJson(files.scan, SCAN_FILE) as { sha?: unknown } | null)?.sha;
    const wrong = provenanceRefusal(manifest, scanSha, run);
    if (wrong) throw new ArtifactRefused(wrong);
    const { pages, ...head } = body;
    const leave = await ctx.writes.enter();
    let scanId: string;
    try {
      const stored = await ingestScan(ctx, org, head, pageSource(pages));
      scanId = stored.scan.id;
    } finally {
      leave();
    }
    const event = await triggerGate(ctx, org, {
      siteId: site.siteId,
      sha: run.headSha.toLowerCase(),
      repository: run.repository,
      ref: `refs/pull/${run.pullRequest}/head`,
      // The App comments on the pull request GitHub listed for the head sha, never one the artifact names.
      pull_request: run.pullRequest,
    });
    ctx.logger.info(
      { org, site_id: site.siteId, scan_id: scanId, deploy_id: event.id, repository: run.repository },
      'fork pull request scan gated',
    );
    return { status: 'gated', org, siteId: site.siteId, scanId, deployId: event.id };
  } catch (err) {
    const reason = refusalReason(err);
    if (reason === undefined) throw err;
    ctx.logger.warn({ org, repository: run.repository, reason }, 'fork pull request artifact refused');
    return { status: 'refused', siteId, reason };
  }
}

/** The reason of a refusal (the artifact's fault), or undefined for a failure of the server. */
function refusalReason(err: unknown): string | undefined {
  if (err instanceof ArtifactRefused) return err.reason;
  if (err instanceof DomainError && ['invalid', 'too_large'].includes(err.kind)) {
    const detail = err.errors?.[0] ? ` (${err.errors[0].pointer}: ${err.errors[0].detail})` : '';
    return `the scan was refused: ${err.message}${detail}`;
  }
  return undefined;
}
