import crypto from 'node:crypto';
import { ApiError, type ApiClient } from './api-client.js';
import type { ScanBodyPage, ScanCreated, ScanRequest } from './wire-types.js';
import type { Shard } from '../core/scans/shards.js';
import { batches, PART_BYTES, type KeyFor } from './scan-submit.js';

/**
 * One job of a sharded run: its pages go to the one open scan the run's group key names (the first job
 * opens it, the others find it), in parts that name the job's shard. The service completes the scan when
 * the last shard reports, and the job whose part completed it is the one that asks the gate. A final job
 * may complete the scan by its group key instead. Both faces (the Action and the CLI) send shards this way.
 */

const SCAN_TIMEOUT_MS = 120_000;

export interface ShardStatusWire {
  total: number | null;
  reported: number[];
  missing: number[];
}

export type ShardOutcome =
  /** This job's part completed the scan: this job asks the gate. */
  | { state: 'completed'; scan: ScanCreated }
  /** The scan was complete before this job sent anything (a re-run): nothing was sent, the gate's answer stands. */
  | { state: 'complete-before'; scanId: string }
  /** Other shards have not reported yet: the job that completes the scan asks the gate. */
  | { state: 'open'; scanId: string; shards: ShardStatusWire };

interface GroupAnswer {
  id: string;
  status: 'open' | 'complete';
  shards?: ShardStatusWire;
}

interface PartAnswer extends GroupAnswer {
  scan?: ScanCreated;
}

/**
 * The default group key: the commit and the CI system's id of the run, which every job of the run shares
 * and a re-run of a job keeps (so a re-run finds the scan its first attempt sent to).
 */
export function defaultScanGroup(sha: string | null, env: NodeJS.ProcessEnv): string | null {
  const run =
    env.GITHUB_RUN_ID || env.CI_PIPELINE_ID || env.CIRCLE_WORKFLOW_ID || env.BUILDKITE_BUILD_ID || null;
  if (!run) return null;
  return `${sha ? `${sha.slice(0, 12)}-` : ''}run-${run}`.replace(/[^A-Za-z0-9._:-]/g, '-');
}

/**
 * Sends the job's shard. With `pictures` (the job has element screenshots to send), the shard's pages go
 * first in parts that do not report it, then the pictures of those pages (`pictures(scanId)`), then an
 * empty last part that reports the shard: every shard's pictures are stored before the scan can complete,
 * so the gate and its check run see them all.
 */
export async function submitShard(
  client: ApiClient,
  scan: ScanRequest,
  job: { shard: Shard; group: string; pictures?: (scanId: string) => Promise<void> },
  keyFor: KeyFor,
  log: (line: string) => void,
  partBytes: number = PART_BYTES,
): Promise<ShardOutcome> {
  const { index, total } = job.shard;
  const opening = { ...scan, pages: [], complete: false, scan_group: job.group, shards: total };
  const opened = await client.post<GroupAnswer>(
    '/api/v1/scans',
    opening,
    keyFor(`shard-${index}-open`, opening),
  );
  const id = opened.body.id;
  if (opened.body.status === 'complete') return { state: 'complete-before', scanId: id };
  const parts: ScanBodyPage[][] = scan.pages.length > 0 ? batches(scan.pages, partBytes) : [[]];
  if (job.pictures && scan.pages.length > 0) parts.push([]);
  let last: PartAnswer | null = null;
  for (const [i, pages] of parts.entries()) {
    if (job.pictures && scan.pages.length > 0 && i === parts.length - 1) await job.pictures(id);
    const body = { shard: index, shard_part: i + 1, shard_parts: parts.length, pages };
    try {
      const res = await client.post<PartAnswer>(
        `/api/v1/scans/${encodeURIComponent(id)}/pages`,
        body,
        keyFor(`shard-${index}-part-${i}`, body),
        { timeoutMs: SCAN_TIMEOUT_MS },
      );
      last = res.body;
    } catch (err) {
      // Another job completed the scan while this one was sending (its own re-run came too late).
      if (err instanceof ApiError && err.details.scanComplete)
        return { state: 'complete-before', scanId: id };
      throw err;
    }
    log(
      `Scan ${id}, shard ${index} of ${total}: part ${i + 1} of ${parts.length} sent (${pages.length} pages)`,
    );
  }
  if (last?.status === 'complete' && last.scan) return { state: 'completed', scan: last.scan };
  return { state: 'open', scanId: id, shards: last?.shards ?? { total, reported: [], missing: [] } };
}

export type CompleteOutcome =
  | { state: 'complete'; scanId: string; completedNow: boolean; shards: ShardStatusWire }
  | { state: 'missing'; missing: number[]; message: string };

/** The final job of a sharded run: completes the group's scan, or learns which shards are missing. */
export async function completeScanGroup(
  client: ApiClient,
  siteId: string,
  group: string,
  keyFor: KeyFor,
): Promise<CompleteOutcome> {
  const body = { siteId, scan_group: group };
  try {
    const res = await client.post<{ id: string; completed_now: boolean; shards: ShardStatusWire }>(
      '/api/v1/scans/complete',
      body,
      keyFor('scan-group-complete', body),
    );
    return {
      state: 'complete',
      scanId: res.body.id,
      completedNow: res.body.completed_now,
      shards: res.body.shards,
    };
  } catch (err) {
    if (err instanceof ApiError && err.details.missingShards) {
      return {
        state: 'missing',
        missing: err.details.missingShards,
        message: err.details.detail ?? err.message,
      };
    }
    throw err;
  }
}

/**
 * The gate's Idempotency-Key for a sharded scan: the same for every job that asks about that scan with the
 * same thresholds, so the gate decides once, and a job that asks again (a re-run, or the final job after the
 * last shard completed the scan) gets that decision replayed.
 */
export function shardGateKey(scanId: string, trigger: unknown): string {
  const digest = crypto
    .createHash('sha256')
    .update(`${scanId}|${JSON.stringify(trigger)}`)
    .digest('hex');
  return `a11y-gate-shards-gate-${digest.slice(0, 40)}`;
}

/** "shards 2 and 3 of 4 have not reported", as the service words it. */
export function waitingText(shards: ShardStatusWire): string {
  const m = shards.missing;
  if (m.length === 0) return 'the scan completes when the final job completes it';
  const names = m.length === 1 ? `${m[0]}` : `${m.slice(0, -1).join(', ')} and ${m[m.length - 1]}`;
  return `${m.length === 1 ? 'shard' : 'shards'} ${names} of ${shards.total ?? '?'} ${m.length === 1 ? 'has' : 'have'} not reported yet`;
}
