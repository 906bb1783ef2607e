import path from 'node:path';
import * as core from '@actions/core';
import { describeBaseline, noBaselineText } from '../core/gate/baseline.js';
import type { GateResult } from '../core/gate/deploy-event.js';
import { markdownCode } from '../core/text/github-markdown.js';
import { plural } from '../core/text/wording.js';
import { readBaseline, type BaselineEntry } from '../scanner/baseline-file.js';
import { findingsOf, type Finding } from '../scanner/findings.js';
import { judgeLocally } from '../scanner/local-gate.js';
import { localGateResult } from '../scanner/local-result.js';
import { resultFindings } from '../scanner/result-findings.js';
import { annotateNewIssues } from './annotations.js';
import { findBaselineArtifact, recordBaselineArtifact } from './baseline-artifact.js';
import type { ActionInputs } from './inputs.js';
import { localSummaryMarkdown, writeJobSummary, type LocalNote } from './job-summary.js';
import { setOutputs } from './outputs.js';
import { commentOnPullRequest } from './pr-comment.js';
import { collectScan, type CollectedScan } from './scan-step.js';

/**
 * The gate without a service (`gate-mode: local`, the default without `api-url`): the step scans and reads
 * the results as always, judges them against a baseline with the kernel's matcher and thresholds
 * (scanner/local-gate.ts, as the CLI does), and reports as with a service: outputs, annotations, the job
 * summary, the pull request comment, a failed step when the gate fails. The baseline is the committed
 * baseline file, else the baseline branch's latest successful run's artifact, else none (docs/action.md).
 */

/** Where the baseline came from, as the report tells it. */
interface Baseline {
  entries: BaselineEntry[];
  reason: string;
  sha: string | null;
  /** A few words for the log's verdict: `against .a11y-gate/baseline.json`. */
  against: string;
}

/** The workspace-relative path, as a user wrote it in the workflow. */
function shown(file: string): string {
  const rel = path.relative(process.env.GITHUB_WORKSPACE || process.cwd(), file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

/** (a) the committed file, (b) the baseline branch's latest successful run, (c) none. */
async function findBaseline(inputs: ActionInputs): Promise<Baseline | null> {
  const file = inputs.local.baselineFile;
  const committed = await readBaseline(file);
  if (committed) {
    const reason = `The committed baseline file ${shown(file)} (${plural(committed.length, 'entry', 'entries')}).`;
    return { entries: committed, reason, sha: null, against: `against ${shown(file)}` };
  }
  const branch = inputs.local.baselineBranch;
  const found = await findBaselineArtifact(inputs);
  if (!found) return null;
  const reason =
    `The baseline of the latest successful run on ${branch} (run ${found.runId}` +
    `${found.sha ? `, commit ${found.sha.slice(0, 12)}` : ''}), left as its artifact.`;
  core.info(`Baseline: ${reason}`);
  return {
    entries: found.entries,
    reason,
    sha: found.sha,
    against: `against the baseline of run ${found.runId}`,
  };
}

function findingsOfScan(collected: CollectedScan): Finding[] {
  return [
    ...(collected.scanned ? findingsOf(collected.scanned.run.pages) : []),
    ...(collected.loaded ? resultFindings(collected.loaded.scan.pages) : []),
  ];
}

/** The pages a partial scan covers: those it scanned and those of its result files. */
function scannedPages(collected: CollectedScan): string[] {
  return [
    ...(collected.scanned ? collected.scanned.run.pages.filter((p) => p.ok).map((p) => p.url) : []),
    ...(collected.loaded ? collected.loaded.scan.pages.map((p) => p.url) : []),
  ];
}

/** Why there is no baseline: on the baseline branch its first run records one; elsewhere nothing compares. */
function noBaselineReason(inputs: ActionInputs): string {
  const branch = inputs.local.baselineBranch;
  if (!inputs.local.records) return noBaselineText(branch);
  return describeBaseline({
    head: { id: '', sha: inputs.sha, branch, createdAt: '' },
    baseBranch: branch,
    scan: null,
  }).reason;
}

function noteOf(collected: CollectedScan, recordedAt: string | null): LocalNote {
  const s = collected.scanned;
  return {
    ...(s
      ? {
          scanned: {
            pages: s.run.pages.length,
            failed: s.run.pages.flatMap((p) => (p.ok ? [] : [{ url: p.url, error: p.error ?? '' }])),
            seconds: s.seconds,
            findings: s.findings,
            located: s.located,
          },
        }
      : {}),
    files: collected.loaded?.files.length ?? 0,
    recordedAt,
  };
}

export async function gateLocally(inputs: ActionInputs): Promise<void> {
  const collected = await collectScan(inputs);
  if (!collected) throw new Error('nothing to judge: give "results" or pages to scan');
  const findings = findingsOfScan(collected);
  const baseline = await findBaseline(inputs);
  // A partial scan is compared on its own pages only, and is never recorded as the baseline.
  const partial = inputs.scope === 'partial' ? scannedPages(collected) : null;
  const verdict = judgeLocally(
    findings,
    baseline?.entries ?? null,
    {
      failOnCritical: inputs.failOnCritical,
      failOnSerious: inputs.failOnSerious,
      maxNewIssues: inputs.maxNewIssues,
      ignores: [],
    },
    new Date(),
    partial,
  );
  const recordedAt =
    inputs.local.records && !partial ? await recordBaselineArtifact(inputs, verdict.recorded) : null;
  if (recordedAt) core.info(`Baseline of ${inputs.local.baselineBranch} recorded: ${recordedAt}.`);
  const noBaseline = noBaselineReason(inputs);
  if (!baseline && inputs.local.records) core.info(noBaseline);
  else if (!baseline) core.warning(noBaseline, { title: 'a11y-gate: no baseline' });
  if (!inputs.gate) return notJudged(inputs, recordedAt);
  const result = localGateResult(verdict, {
    siteId: inputs.siteId,
    sha: inputs.sha,
    repository: inputs.repository,
    baseline,
    recorded: inputs.local.records,
    noBaseline,
  });
  await report(inputs, result, baseline?.against ?? 'with no baseline', noteOf(collected, recordedAt));
}

/** `gate: false`: nothing judged (a run that only records the baseline); `passed` stays empty. */
async function notJudged(inputs: ActionInputs, recordedAt: string | null): Promise<void> {
  for (const name of ['passed', 'deploy-id', 'scan-id', 'new-issues', 'details-url'])
    core.setOutput(name, '');
  const recorded = recordedAt ? ` This run's issues were left as the baseline in ${recordedAt}.` : '';
  await writeJobSummary(
    `## a11y-gate: ${markdownCode(inputs.siteId)}\n\n\`gate\` is \`false\`: the scan was not judged.${recorded}\n`,
  );
  core.info('gate: false, so the scan was not judged.');
}

async function report(
  inputs: ActionInputs,
  result: GateResult,
  against: string,
  note: LocalNote,
): Promise<void> {
  setOutputs({
    passed: result.passed,
    'deploy-id': '',
    'scan-id': '',
    'new-issues': String(result.counts.new),
    'details-url': '',
  });
  const annotations = annotateNewIssues(result.new_issues);
  await writeJobSummary(localSummaryMarkdown(result, note, annotations));
  await commentOnPullRequest(inputs, result, { listedIn: 'the job summary', appWrites: false });
  const recorded = result.reasons.find((r) => r.code === 'baseline_recorded');
  if (recorded) {
    core.info(`${recorded.message} (${inputs.siteId} at ${inputs.sha}, judged without a service)`);
  } else if (result.passed) {
    core.info(
      `Accessibility gate passed for ${inputs.siteId} at ${inputs.sha}: ${result.counts.new} new issues (judged without a service, ${against})`,
    );
  } else {
    const reasons = result.reasons.map((r) => `- ${r.message} (${r.code})`).join('\n');
    core.setFailed(
      `Accessibility gate failed for ${inputs.siteId} at ${inputs.sha} (judged without a service, ${against}):\n${reasons}`,
    );
  }
}
