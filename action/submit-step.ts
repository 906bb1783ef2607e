import * as core from '@actions/core';
import type { ApiClient } from '../client/api-client.js';
import type { ActionInputs } from './inputs.js';
import { idempotencyKey } from './idempotency-key.js';
import { scanSize, type UploadNote } from './job-summary.js';
import { collectScan, composeScan, scanStep, type ScanStep } from './scan-step.js';
import { submitScan } from '../client/scan-submit.js';
import { screenshotsToSend } from '../scanner/scan-body.js';
import { screenshotsLine, sendScreenshots } from '../client/screenshots.js';
import { completeScanGroup, shardGateKey, submitShard, waitingText } from '../client/shard-submit.js';

/** The sharded run's complete job found shards that have not reported: the scan stays open. */
export class ShardsMissingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShardsMissingError';
  }
}

/**
 * What the submit step leaves for the gate: the upload, the gate's Idempotency-Key for a sharded scan
 * (every job asking about it shares one decision), or `waiting` when this job does not ask the gate.
 */
export interface SubmitResult {
  upload?: UploadNote;
  gateKey?: (trigger: unknown) => string;
  /** This job sent its shard and others have not reported, or the scan is complete and `gate` is false. */
  waiting?: { scanId: string; message: string };
}

/**
 * Scan the pages the scanner inputs name and read the `results` files, submit them as one scan, and
 * return what was submitted (nothing when neither is set).
 */
async function submitWhole(inputs: ActionInputs, client: ApiClient): Promise<UploadNote | undefined> {
  const collected = await collectScan(inputs);
  if (!collected) return undefined;
  const { scan, scanned, loaded } = collected;
  // Large runs go in parts when the service offers them; each request keyed by this run and its body.
  const res = await submitScan(
    client,
    scan,
    (request, body) => idempotencyKey(inputs, request, body),
    (line) => core.info(line),
  );
  core.info(
    `Scan ${res.body.id} ${res.replayed ? 'was already submitted by this run (replayed)' : 'submitted'}` +
      (res.body.summary ? `: ${scanSize(res.body.summary)}` : ''),
  );
  for (const w of res.body.warnings ?? []) core.warning(`a11y-gate: ${w.message} (${w.code})`);
  const shots = scanned ? screenshotsToSend(scanned.run) : [];
  if (shots.length > 0) {
    const key = (request: string, body: unknown) => idempotencyKey(inputs, request, body, res.body.id);
    const sent = await sendScreenshots(client, res.body.id, shots, key, (line) => core.info(line));
    core.info(screenshotsLine(res.body.id, sent));
  }
  return {
    scan: res.body,
    files: loaded?.files.length ?? 0,
    replayed: res.replayed,
    ...(scanned ? { scanned: summaryOf(scanned) } : {}),
  };
}

function summaryOf(step: ScanStep): NonNullable<UploadNote['scanned']> {
  return {
    pages: step.run.pages.length,
    failed: step.run.pages.filter((p) => !p.ok).map((p) => ({ url: p.url, error: p.ok ? '' : p.error })),
    seconds: step.seconds,
    findings: step.findings,
    located: step.located,
  };
}

/** Submits what this job has: a whole scan, this job's shard, or (`mode: complete`) nothing but the completion. */
export async function submitStep(inputs: ActionInputs, client: ApiClient): Promise<SubmitResult> {
  if (inputs.mode === 'complete') return completeStep(inputs, client);
  const shard = inputs.scan?.shard;
  if (!shard || !inputs.scanGroup) return { upload: await submitWhole(inputs, client) };
  const scanned = await scanStep(inputs);
  const scan = composeScan(inputs, null, scanned);
  if (scanned.run.siteUrl && !inputs.url) scan.url = scanned.run.siteUrl;
  const keyFor = (request: string, body: unknown) => idempotencyKey(inputs, request, body);
  const shots = screenshotsToSend(scanned.run);
  const pictures = async (scanId: string) => {
    const key = (request: string, body: unknown) => idempotencyKey(inputs, request, body, scanId);
    core.info(
      screenshotsLine(scanId, await sendScreenshots(client, scanId, shots, key, (l) => core.info(l))),
    );
  };
  const job = { shard, group: inputs.scanGroup, ...(shots.length > 0 ? { pictures } : {}) };
  const outcome = await submitShard(client, scan, job, keyFor, (line) => core.info(line));
  const note = { files: 0, replayed: false, scanned: summaryOf(scanned) };
  if (outcome.state === 'open') {
    const message =
      `Shard ${shard.index} of ${shard.total} sent to scan ${outcome.scanId} (group ${job.group}): ` +
      `${waitingText(outcome.shards)}; the job that completes the scan asks the gate.`;
    return { waiting: { scanId: outcome.scanId, message } };
  }
  const scanId = outcome.state === 'completed' ? outcome.scan.id : outcome.scanId;
  core.info(
    outcome.state === 'completed'
      ? `Scan ${scanId} complete: shard ${shard.index} was the last to report (${scanSize(outcome.scan.summary)})`
      : `Scan ${scanId} (group ${job.group}) was already complete: this shard's pages were not sent again`,
  );
  const upload = outcome.state === 'completed' ? { ...note, scan: outcome.scan } : undefined;
  return sharedGate(inputs, scanId, upload);
}

function sharedGate(inputs: ActionInputs, scanId: string, upload: UploadNote | undefined): SubmitResult {
  if (!inputs.gate) {
    return {
      waiting: { scanId, message: `Scan ${scanId} is complete; gate is false, so the gate was not asked.` },
    };
  }
  return { ...(upload ? { upload } : {}), gateKey: (trigger) => shardGateKey(scanId, trigger) };
}

/** `mode: complete`: completes the group's scan; fails naming the shards that have not reported. */
async function completeStep(inputs: ActionInputs, client: ApiClient): Promise<SubmitResult> {
  const group = inputs.scanGroup!;
  const keyFor = (request: string, body: unknown) => idempotencyKey(inputs, request, body);
  const done = await completeScanGroup(client, inputs.siteId, group, keyFor);
  if (done.state === 'missing') throw new ShardsMissingError(`The scan stays open: ${done.message}`);
  core.info(
    `Scan ${done.scanId} (group ${group}) ${done.completedNow ? 'completed' : 'was already complete'}: ` +
      `${done.shards.reported.length} shards reported`,
  );
  return sharedGate(inputs, done.scanId, undefined);
}
