import * as core from '@actions/core';
import { annotateNewIssues } from './annotations.js';
import { ApiClient, ApiError } from '../client/api-client.js';
import type { TriggerRequest } from '../client/wire-types.js';
import { type DeployEvent } from '../core/gate/deploy-event.js';
import { idempotencyKey } from './idempotency-key.js';
import { InputError, parseInputs, type ActionInputs } from './inputs.js';
import {
  errorSummaryMarkdown,
  gateSummaryMarkdown,
  submitOnlySummary,
  writeJobSummary,
  type UploadNote,
} from './job-summary.js';
import { ResultsFormatError } from './result-formats.js';
import { commentOnPullRequest } from './pr-comment.js';
import { ScanProblemError } from './scan-step.js';
import { ShardsMissingError, submitStep } from './submit-step.js';
import { handOffScan } from './hand-off.js';
import { setOutputs } from './outputs.js';
import { gateLocally } from './local-step.js';
import { BaselineArtifactError } from './baseline-artifact.js';
import { BaselineFileError } from '../scanner/baseline-file.js';
import { ResultFindingsError } from '../scanner/result-findings.js';
import { BrowserError } from '../scanner/browser.js';
import type { Claim } from '../core/claims/deploy-claims.js';
import { PageSourceError } from '../scanner/pages.js';
import { LoginError } from '../scanner/session.js';

export function triggerBody(inputs: ActionInputs): TriggerRequest {
  const body: TriggerRequest = {
    siteId: inputs.siteId,
    sha: inputs.sha,
    fail_on_critical: inputs.failOnCritical,
  };
  // Left empty, these inputs are not sent, so the site's `gate` settings (then the service defaults) apply.
  if (inputs.failOnSerious !== null) body.fail_on_serious = inputs.failOnSerious;
  if (inputs.maxNewIssues !== null) body.max_total = inputs.maxNewIssues;
  if (inputs.repository) body.repository = inputs.repository;
  if (inputs.ref) body.ref = inputs.ref;
  if (inputs.pullRequest) body.pull_request = inputs.pullRequest;
  if (inputs.claims.length) body.claims = inputs.claims.map(claimRequest);
  if (inputs.baselineSha) {
    body.baseline_sha = inputs.baselineSha;
    body.baseline_fallback = 'base_branch';
  }
  return body;
}

/** A claim as the trigger takes it: the fingerprint, with who made the change when the description says. */
function claimRequest(c: Claim): NonNullable<TriggerRequest['claims']>[number] {
  const p = c.provenance;
  if (!p) return c.fingerprint;
  return {
    fingerprint: c.fingerprint,
    ...(p.agent ? { agent: p.agent } : {}),
    ...(p.model ? { model: p.model } : {}),
    ...(p.session_url ? { session_url: p.session_url } : {}),
  };
}

/** The console's page when the service has a public URL; else the deploy event in the API. */
function detailsUrlOf(
  res: { pageUrl: string | null; location: string | null },
  apiUrl: string,
  id: string,
): string {
  return res.pageUrl ?? res.location ?? `${apiUrl}/api/v1/deploy/${encodeURIComponent(id)}`;
}

/** The service's client, with a warning when the key would travel over plain http to another host. */
function clientFor(inputs: ActionInputs): ApiClient {
  const api = new URL(inputs.apiUrl);
  if (api.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(api.hostname)) {
    core.warning(`Input "api-url" uses plain http: the API key travels unencrypted to ${api.host}.`);
  }
  return new ApiClient({
    baseUrl: inputs.apiUrl,
    apiKey: inputs.apiKey,
    ...(inputs.retryDelayMs !== null ? { retryDelayMs: inputs.retryDelayMs } : {}),
    log: (message) => core.info(message),
  });
}

/** A shard sent while others have not reported (or a complete sharded scan with `gate: false`): no verdict. */
async function waitingOnly(
  inputs: ActionInputs,
  waiting: { scanId: string; message: string },
): Promise<void> {
  for (const name of ['passed', 'deploy-id', 'new-issues', 'details-url']) core.setOutput(name, '');
  core.setOutput('scan-id', waiting.scanId);
  await writeJobSummary(`## a11y-gate: \`${inputs.siteId}\`\n\n${waiting.message}\n`);
  core.info(waiting.message);
}

/** `gate: false`: the scan is submitted and reported, no verdict asked for. */
async function submitOnly(inputs: ActionInputs, upload: UploadNote | undefined): Promise<void> {
  // Not judged: `passed` stays empty rather than claiming a verdict.
  for (const name of ['passed', 'deploy-id', 'new-issues', 'details-url']) core.setOutput(name, '');
  core.setOutput('scan-id', upload?.scan.id ?? '');
  await writeJobSummary(submitOnlySummary(inputs.siteId, upload));
  core.info('gate: false, so the deploy gate was not asked.');
}

/**
 * Submit the results (when `results` is set), call the deploy gate for the commit, and report: outputs,
 * job summary, annotations, and a failed step when the gate fails. Never throws: every failure ends in
 * core.setFailed (or a warning for an outage with `fail-on-error: false`).
 */
export async function run(): Promise<void> {
  // Mask the key before anything else can print it, even when another input turns out to be invalid.
  const rawKey = core.getInput('api-key');
  if (rawKey) core.setSecret(rawKey);

  let inputs: ActionInputs;
  try {
    inputs = parseInputs(core.getInput);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    setOutputs({ passed: false, 'deploy-id': '', 'scan-id': '', 'new-issues': '', 'details-url': '' });
    await writeJobSummary(errorSummaryMarkdown(null, message, true));
    core.setFailed(message);
    return;
  }

  // No key on a pull request (a fork's): the scan goes to the GitHub App as an artifact.
  if (inputs.handOff) return handOffScan(inputs).catch((err: unknown) => handleError(err, inputs, undefined));
  // No service: judged here, against the committed baseline or the baseline branch's latest run.
  if (inputs.gateMode === 'local')
    return gateLocally(inputs).catch((err: unknown) => handleError(err, inputs, undefined));
  const client = clientFor(inputs);

  let upload: UploadNote | undefined;
  try {
    const step = await submitStep(inputs, client);
    upload = step.upload;
    if (step.waiting) return await waitingOnly(inputs, step.waiting);
    if (!inputs.gate) {
      await submitOnly(inputs, upload);
      return;
    }

    const body = triggerBody(inputs);
    const res = await client.post<DeployEvent>(
      '/api/v1/deploy/trigger',
      body,
      // A step that submitted a scan asks about that scan: keyed by it (see idempotencyKey); every job of
      // a sharded scan shares one key, so the gate decides once.
      step.gateKey?.(body) ?? idempotencyKey(inputs, 'gate', body, upload?.scan.id ?? null),
    );
    const event = res.body;
    assertDeployEvent(event, res.status);
    const detailsUrl = detailsUrlOf(res, inputs.apiUrl, event.id);

    setOutputs({
      passed: event.passed,
      'deploy-id': event.id,
      'scan-id': event.scan_id ?? upload?.scan.id ?? '',
      'new-issues': String(event.counts.new),
      'details-url': detailsUrl,
    });
    warnAboutJudgedScan(inputs, event, upload);
    const annotations = annotateNewIssues(event.new_issues ?? []);
    await writeJobSummary(gateSummaryMarkdown(event, detailsUrl, upload, annotations));
    await commentOnPullRequest(inputs, event, {
      deployUrl: detailsUrl,
      appWrites: event.check_run?.status !== 'skipped',
    });

    if (event.passed) {
      core.info(
        `Accessibility gate passed for ${inputs.siteId} at ${inputs.sha}: ${event.counts.new} new issues. ${detailsUrl}`,
      );
    } else {
      const reasons = event.reasons.map((r) => `- ${r.message} (${r.code})`).join('\n');
      core.setFailed(
        `Accessibility gate failed for ${inputs.siteId} at ${inputs.sha}:\n${reasons}\n${detailsUrl}`,
      );
    }
  } catch (err) {
    await handleError(err, inputs, upload);
  }
}

/** What the decision says that the inputs did not ask for: another scan judged, every issue counted. */
function warnAboutJudgedScan(inputs: ActionInputs, event: DeployEvent, upload: UploadNote | undefined): void {
  // The gate judges the commit's latest scan: in a matrix, another job's upload may have come later.
  if (upload && event.scan_id && event.scan_id !== upload.scan.id) {
    core.warning(
      `The gate judged scan ${event.scan_id}, not ${upload.scan.id} that this step submitted: another scan of ${inputs.sha} for ${inputs.siteId} arrived in between (a matrix job?), and the gate judges a commit's latest scan.`,
    );
  }
  // The inputs speak of new issues; a site may have chosen to gate on every issue instead.
  if (event.settings?.new_only === false) {
    core.warning(
      `The site's gate settings have new_only: false, so "max-new-issues" and "fail-on-critical"/"fail-on-serious" counted every issue of the commit, not only new ones (PATCH /api/v1/sites/${inputs.siteId} to change it).`,
    );
  }
}

/**
 * The fields the action reads, checked before it reads them: JSON from something that is not a11y-gate
 * would otherwise end in a TypeError, or worse, in a verdict read from a missing field.
 */
function assertDeployEvent(event: DeployEvent, status: number): void {
  const e = (typeof event === 'object' && event !== null ? event : null) as Record<string, unknown> | null;
  const checks: [string, (v: unknown) => boolean][] = [
    ['passed', (v) => typeof v === 'boolean'],
    ['id', (v) => typeof v === 'string'],
    ['counts', (v) => typeof v === 'object' && v !== null],
    ['reasons', Array.isArray],
  ];
  const missing = e ? checks.find(([field, ok]) => !ok(e[field]))?.[0] : 'passed';
  if (missing) {
    throw new ApiError(
      'rejected',
      `POST /api/v1/deploy/trigger answered ${status} with JSON that is not a deploy event (no "${missing}"): is api-url the a11y-gate service?`,
      { status, attempts: 1 },
    );
  }
}

async function handleError(
  err: unknown,
  inputs: ActionInputs,
  upload: UploadNote | undefined,
): Promise<void> {
  const message = err instanceof Error ? err.message : String(err);
  // Only an outage may be waved through: a rejected request (bad key, bad results) or a bad input is a
  // configuration mistake that would otherwise go unnoticed forever.
  const outage = err instanceof ApiError && err.kind === 'outage';
  const known = [
    ApiError,
    InputError,
    ResultsFormatError,
    ScanProblemError,
    ShardsMissingError,
    BrowserError,
    PageSourceError,
    LoginError,
    BaselineArtifactError,
    BaselineFileError,
    ResultFindingsError,
  ].some((type) => err instanceof type);
  const failed = !outage || inputs.failOnError;
  setOutputs({
    passed: false,
    'deploy-id': '',
    'scan-id': upload?.scan.id ?? '',
    'new-issues': '',
    'details-url': '',
  });
  await writeJobSummary(errorSummaryMarkdown(inputs.siteId, message, failed, upload));
  if (!known && err instanceof Error && err.stack) core.debug(err.stack);
  if (failed) {
    core.setFailed(
      outage
        ? `a11y-gate is unreachable, so the gate fails closed (set fail-on-error: false to only warn): ${message}`
        : message,
    );
  } else {
    core.warning(`a11y-gate is unreachable; the gate was NOT evaluated (fail-on-error is false): ${message}`);
  }
}
