import * as core from '@actions/core';
import {
  ARTIFACT_FORMAT,
  ARTIFACT_NAME,
  MANIFEST_FILE,
  SCAN_FILE,
  type ForkManifest,
} from '../core/github/fork-artifact.js';
import { leaveArtifact } from './artifacts.js';
import type { ActionInputs } from './inputs.js';
import { writeJobSummary } from './job-summary.js';
import { collectScan } from './scan-step.js';

/** Days GitHub keeps the artifact: the App takes it when the run completes, re-runs make a new one. */
const RETENTION_DAYS = 7;

/**
 * A pull request's run without an API key (a fork's: GitHub passes it no secrets). The scan is made as
 * usual and left as the artifact `a11y-gate-scan` (layout in docs/action.md); the a11y-gate GitHub App
 * takes it when the run completes and posts the gate's check run. Not a failure: the step says what
 * will happen and ends green.
 */
export async function handOffScan(inputs: ActionInputs): Promise<void> {
  for (const name of ['passed', 'deploy-id', 'scan-id', 'new-issues', 'details-url'])
    core.setOutput(name, '');
  const collected = await collectScan(inputs);
  if (!collected) throw new Error('nothing to hand over: give "results" or pages to scan');
  const manifest: ForkManifest = {
    format: ARTIFACT_FORMAT,
    site_id: inputs.siteId,
    pull_request: inputs.handOff?.pullRequest ?? null,
    head_sha: inputs.sha,
  };
  const pages = collected.scan.pages.length;
  core.info(`No API key in this pull request's run: the scan (${pages} pages) is handed to the GitHub App.`);
  const { where } = await leaveArtifact(
    ARTIFACT_NAME,
    [
      { name: MANIFEST_FILE, text: JSON.stringify(manifest, null, 2) + '\n' },
      { name: SCAN_FILE, text: JSON.stringify(collected.scan) },
    ],
    RETENTION_DAYS,
  );
  const next =
    `When this workflow run completes, the a11y-gate GitHub App installed on the base repository takes ` +
    `${where}, runs the gate for ${inputs.sha} against the base branch with the site's own thresholds ` +
    `and posts the result as the check run "a11y-gate / ${inputs.siteId}" on the pull request.`;
  core.notice(next, { title: 'a11y-gate: gate result will come from the GitHub App' });
  await writeJobSummary(handOffSummary(inputs, pages, where, next));
}

function handOffSummary(inputs: ActionInputs, pages: number, where: string, next: string): string {
  return [
    `## a11y-gate: scan handed to the GitHub App (${inputs.siteId})`,
    '',
    `This pull request's workflow run has no API key, as on pull requests from forks (GitHub passes them ` +
      `no secrets), so the scan was not submitted from here: ${pages} ${pages === 1 ? 'page' : 'pages'} ` +
      `of ${inputs.sha}${inputs.handOff?.pullRequest ? ` (pull request #${inputs.handOff.pullRequest})` : ''} ` +
      `${pages === 1 ? 'was' : 'were'} saved to ${where}.`,
    '',
    next,
    '',
    'Without the App on the repository nothing more happens: see "Pull requests from forks" in the ' +
      "a11y-gate docs (docs/action.md) for the App's set-up.",
    '',
  ].join('\n');
}
