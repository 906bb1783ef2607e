import type { DeployEvent } from '../core/gate/deploy-event.js';
import { completeScanGroup, shardGateKey, submitShard, waitingText } from '../client/shard-submit.js';
import { screenshotsLine, sendScreenshots } from '../client/screenshots.js';
import type { ScanBodyPage } from '../client/wire-types.js';
import { screenshotsToSend } from '../scanner/scan-body.js';
import type { ScanRun } from '../scanner/scan.js';
import type { Shard } from '../core/scans/shards.js';
import type { ServiceOptions } from './options.js';
import { askGate, cliClient, keyFor, scanBody } from './service.js';

/**
 * The command line as one job of a sharded run: `scan --shard I/N` sends its pages to the run's one scan,
 * and asks the gate only when its part completed the scan; `complete` is the final job that completes it.
 */

export type ShardResult =
  | { gate: DeployEvent; detailsUrl: string }
  /** Nothing to judge in this job: what it did and what it waits for. */
  | { waiting: string }
  /** complete found shards missing: the scan stays open. */
  | { missing: string };

const withGate = async (service: ServiceOptions, client: ReturnType<typeof cliClient>, scanId: string) =>
  askGate(client, service, (trigger) => shardGateKey(scanId, trigger));

export async function sendShard(
  service: ServiceOptions,
  shard: Shard,
  run: ScanRun,
  pages: ScanBodyPage[],
  log: (line: string) => void,
): Promise<ShardResult> {
  if (!service.group) throw new Error('sendShard needs a group key');
  const client = cliClient(service, log);
  const shots = screenshotsToSend(run);
  const pictures = async (scanId: string) => {
    const key = (r: string, b: unknown) => keyFor(service, r, { scan: scanId, b });
    log(screenshotsLine(scanId, await sendScreenshots(client, scanId, shots, key, log)));
  };
  const job = { shard, group: service.group, ...(shots.length > 0 ? { pictures } : {}) };
  const outcome = await submitShard(
    client,
    scanBody(service, run, pages),
    job,
    (r, b) => keyFor(service, r, b),
    log,
  );
  if (outcome.state === 'open') {
    return {
      waiting:
        `Shard ${shard.index} of ${shard.total} sent to scan ${outcome.scanId} (group ${service.group}): ` +
        `${waitingText(outcome.shards)}; the job that completes the scan asks the gate.`,
    };
  }
  const scanId = outcome.state === 'completed' ? outcome.scan.id : outcome.scanId;
  if (outcome.state === 'completed') {
    log(
      `Scan ${scanId} complete: shard ${shard.index} was the last to report (${outcome.scan.summary.pages} pages)`,
    );
  } else {
    log(
      `Scan ${scanId} (group ${service.group}) was already complete: this shard's pages were not sent again`,
    );
  }
  if (!service.gate)
    return { waiting: `Scan ${scanId} is complete; --gate was not given, so the gate was not asked.` };
  return withGate(service, client, scanId);
}

/** `a11y-gate complete`: completes the group's scan, then (with --gate) asks the gate about it once. */
export async function completeShardGroup(
  service: ServiceOptions & { group: string; siteId: string },
  log: (line: string) => void,
): Promise<ShardResult> {
  const client = cliClient(service, log);
  const done = await completeScanGroup(client, service.siteId, service.group, (r, b) =>
    keyFor(service, r, b),
  );
  if (done.state === 'missing') return { missing: `The scan stays open: ${done.message}` };
  log(
    `Scan ${done.scanId} (group ${service.group}) ${done.completedNow ? 'completed' : 'was already complete'}: ` +
      `${done.shards.reported.length} shards reported`,
  );
  if (!service.gate)
    return { waiting: `Scan ${done.scanId} is complete; --gate was not given, so the gate was not asked.` };
  return withGate(service, client, done.scanId);
}
