import fs from 'node:fs/promises';
import path from 'node:path';
import * as core from '@actions/core';
import { findingsOf } from '../scanner/findings.js';
import type { ScanProgress } from '../scanner/options.js';
import { writeResultsDir } from '../scanner/results-dir.js';
import { toSarif } from '../scanner/sarif.js';
import { scan, scanProblem, type ScanRun } from '../scanner/scan.js';
import { submittedPages } from '../scanner/scan-body.js';
import type { ScanBodyPage, ScanRequest } from '../client/wire-types.js';
import type { ActionInputs } from './inputs.js';
import { loadResults, type LoadedResults } from './results.js';

/** The scan ran but cannot be trusted: every page failed, or pages landed on the login page. */
export class ScanProblemError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScanProblemError';
  }
}

export interface ScanStep {
  run: ScanRun;
  pages: ScanBodyPage[];
  seconds: number;
  /** Findings (violations and incomplete, per element) and how many of them were located. */
  findings: number;
  located: number;
}

/** One log line per page (an Actions log has no progress bar); text from pages is kept on one line. */
const progress: ScanProgress = {
  planned: (total) => core.info(`${total} ${total === 1 ? 'page' : 'pages'} to scan`),
  page: (p, done, total) =>
    core.info(`[${done}/${total}] ${p.ok ? 'ok' : 'FAILED'} ${p.url}: ${p.detail}`.replace(/[\r\n]+/g, ' ')),
  note: (message) => core.info(message),
};

/**
 * Scans the pages the inputs name, writes the raw results (`results-dir`) and the SARIF report (`sarif`),
 * and warns about each failed page. Throws ScanProblemError after writing them when the run cannot be
 * trusted, so the files are there to look at.
 */
export async function scanStep(inputs: ActionInputs): Promise<ScanStep> {
  if (!inputs.scan) throw new Error('scanStep needs scanner inputs');
  const started = Date.now();
  const run = await scan(inputs.scan, progress);
  const seconds = (Date.now() - started) / 1000;
  const failed = run.pages.filter((p) => !p.ok);
  core.info(
    `Scanned ${run.pages.length - failed.length} of ${run.pages.length} pages in ${seconds.toFixed(1)} s` +
      (run.notScanned ? ` (${run.notScanned} more found by the crawl beyond max-pages)` : ''),
  );
  for (const p of failed) {
    core.warning(`${p.url} was not scanned: ${p.error}${p.status ? ` (HTTP ${p.status})` : ''}`, {
      title: 'a11y-gate: page not scanned',
    });
  }
  if (inputs.resultsDir) {
    const files = await writeResultsDir(inputs.resultsDir, run.pages);
    core.info(`Wrote ${files.length} result files to ${inputs.resultsDir}`);
  }
  const findings = findingsOf(run.pages);
  const located = findings.filter((f) => f.source).length;
  if (inputs.scan.sourceRoot) {
    core.info(`Located ${located} of ${findings.length} findings in ${inputs.scan.sourceRoot}`);
  }
  if (inputs.sarif) {
    await fs.mkdir(path.dirname(path.resolve(inputs.sarif)), { recursive: true });
    const sarif = toSarif(findings, { toolVersion: run.engine.version });
    await fs.writeFile(inputs.sarif, JSON.stringify(sarif.log, null, 2) + '\n');
    core.info(
      `Wrote SARIF to ${inputs.sarif}: ${sarif.located} results; ${sarif.unlocated} findings without a location left out`,
    );
  }
  const problem = scanProblem(run.pages);
  if (problem) throw new ScanProblemError(problem);
  return {
    run,
    pages: submittedPages(run, inputs.scan.keepPasses ? new Set() : null),
    seconds,
    findings: findings.length,
    located,
  };
}

/** The scan body: pages from result files (when `results` is set) followed by the scanned pages. */
export function composeScan(
  inputs: ActionInputs,
  loaded: LoadedResults | null,
  scanned: ScanStep | null,
): ScanRequest {
  const body = loaded && !scanned ? loaded.scan : merged(inputs, loaded, scanned);
  if (inputs.scope === 'partial') body.scope = 'partial';
  return body;
}

function merged(inputs: ActionInputs, loaded: LoadedResults | null, scanned: ScanStep | null): ScanRequest {
  const pages = [...(loaded?.scan.pages ?? []), ...(scanned?.pages ?? [])];
  const first = scanned?.run.pages[0]?.url;
  const url = inputs.url ?? loaded?.scan.url ?? (first ? new URL(first).origin + '/' : '');
  const body: ScanRequest = { url, siteId: inputs.siteId, sha: inputs.sha, pages };
  if (inputs.branch) body.branch = inputs.branch;
  body.engine = loaded?.scan.engine ?? scanned?.run.engine;
  if (inputs.runAttempt) body.run_attempt = inputs.runAttempt;
  return body;
}

/** The scan this step sends (or hands over), with what it was made of. */
export interface CollectedScan {
  scan: ScanRequest;
  scanned: ScanStep | null;
  loaded: LoadedResults | null;
}

/**
 * core.info for text that carries file names or file contents. core.info writes as is, and a line starting
 * with `::` is a workflow command: result files may be an untrusted artifact (a fork's pull request, gated
 * on workflow_run with the secret), so they must not be able to add one. (core.warning/error escape.)
 */
export function logLine(text: string): void {
  core.info(text.replace(/[\r\n]+/g, ' '));
}

/** Scans the pages the scanner inputs name and reads the `results` files; undefined when neither is set. */
export async function collectScan(inputs: ActionInputs): Promise<CollectedScan | undefined> {
  const scanned = inputs.scan ? await scanStep(inputs) : null;
  let loaded: LoadedResults | null = null;
  if (inputs.results) {
    loaded = await loadResults(inputs);
    for (const f of loaded.files)
      logLine(`${f.file}: ${f.format}, ${f.pages} ${f.pages === 1 ? 'page' : 'pages'}`);
    for (const n of loaded.notes) logLine(n);
    for (const w of loaded.warnings) core.warning(w);
  }
  if (!scanned && !loaded) {
    if (inputs.url) {
      core.warning(
        'Input "url" is ignored without "results" (it names the site the results were scanned from).',
      );
    }
    return undefined;
  }
  return { scan: composeScan(inputs, loaded, scanned), scanned, loaded };
}
