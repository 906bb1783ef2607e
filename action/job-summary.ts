import * as core from '@actions/core';
import { newIssuesTable } from '../core/gate/report-issues.js';
import { gateReportSummary } from '../core/gate/report.js';
import type { ScanCreated } from '../client/wire-types.js';
import type { DeployEvent, GateResult } from '../core/gate/deploy-event.js';
import { markdownCode, markdownText } from '../core/text/github-markdown.js';

/**
 * The job summary: the same markdown the GitHub App posts as the check run (one renderer, so both faces
 * tell the same story), headed by what this step uploaded.
 */

/** The new-issues table is cut to this many characters (the step summary itself may hold 1 MiB). */
const ISSUES_TABLE_LIMIT = 65_535;

export interface UploadNote {
  scan: ScanCreated;
  files: number;
  replayed: boolean;
  /** What this step scanned itself, when it did. */
  scanned?: {
    pages: number;
    failed: { url: string; error: string }[];
    seconds: number;
    /** Findings of the scanned pages and how many of them were located in the repository. */
    findings?: number;
    located?: number;
  };
}

/** Located new issues and how many of them this step annotated on the diff. */
export interface AnnotationNote {
  located: number;
  annotated: number;
}

export function gateSummaryMarkdown(
  event: DeployEvent,
  detailsUrl: string,
  upload?: UploadNote,
  annotations?: AnnotationNote,
): string {
  const parts = [`## a11y-gate: ${markdownCode(event.siteId)}`, ''];
  if (upload) parts.push(uploadLine(upload), '');
  parts.push(gateReportSummary(event, detailsUrl));
  if (annotations) parts.push(annotationLine(event, annotations), '');
  parts.push(newIssuesTable(event, ISSUES_TABLE_LIMIT));
  return parts.join('\n');
}

/** Where the new issues are: annotated on the diff, listed below only, or not located at all. */
function annotationLine(event: GateResult, a: AnnotationNote): string {
  const listed = event.new_issues.length;
  if (listed === 0) return '';
  const parts = [`${a.located} of ${listed} listed new issues are located in the repository`];
  if (a.located > 0) parts.push(`${a.annotated} annotated on the diff`);
  if (a.located > a.annotated) {
    parts.push(
      `${a.located - a.annotated} more are listed below only (GitHub shows 10 error and 10 warning annotations per step${event.id ? '; the check run of the a11y-gate App annotates every one' : ''})`,
    );
  }
  return `${parts.join('; ')}.`;
}

/** `gate: false`: what was submitted, and that no verdict was asked for. */
export function submitOnlySummary(siteId: string, upload: UploadNote | undefined): string {
  const parts = [`## a11y-gate: ${markdownCode(siteId)}`, ''];
  if (upload) parts.push(uploadLine(upload), '');
  parts.push('`gate` is `false`: the scan was submitted and the deploy gate was not asked.', '');
  return parts.join('\n');
}

/** When the gate could not be evaluated (outage, rejected request, bad input). */
export function errorSummaryMarkdown(
  siteId: string | null,
  message: string,
  failed: boolean,
  upload?: UploadNote,
): string {
  const parts = [`## a11y-gate${siteId ? `: ${markdownCode(siteId)}` : ''}`, ''];
  if (upload) parts.push(uploadLine(upload), '');
  parts.push(
    failed
      ? '### ❌ The accessibility gate could not be evaluated'
      : '### ⚠️ The accessibility gate was skipped',
    '',
    '```',
    message.replace(/```/g, "'''"),
    '```',
    '',
  );
  if (!failed) parts.push('`fail-on-error` is `false`, so this outage does not fail the job.', '');
  return parts.join('\n');
}

/** "1 page, 3 issues": the scan's size as the log and the summary say it. */
export function scanSize(summary: { pages: number; issues: number }): string {
  const n = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  return `${n(summary.pages, 'page')}, ${n(summary.issues, 'issue')}`;
}

function uploadLine(upload: UploadNote): string {
  const s = upload.scan.summary;
  const counts = s ? ` (${scanSize(s)})` : '';
  const line = `Submitted scan \`${upload.scan.id}\`${counts} from ${sourcesText(upload.scanned, upload.files)}${upload.replayed ? ' (replayed: already submitted by this run)' : ''}.${locatedText(upload.scanned)}`;
  return withFailedPages(line, upload.scanned);
}

/** "2 of 3 pages scanned in 4.1 s and 1 result file": what a scan was made of. */
function sourcesText(scanned: UploadNote['scanned'], files: number): string {
  const sources: string[] = [];
  if (scanned) {
    sources.push(
      `${scanned.pages - scanned.failed.length} of ${scanned.pages} pages scanned in ${scanned.seconds.toFixed(1)} s`,
    );
  }
  if (files > 0 || !scanned) sources.push(`${files} result ${files === 1 ? 'file' : 'files'}`);
  return sources.join(' and ');
}

function locatedText(scanned: UploadNote['scanned']): string {
  return scanned?.findings !== undefined && scanned.located !== undefined
    ? ` ${scanned.located} of ${scanned.findings} findings located in the repository.`
    : '';
}

/** The line, then the pages that could not be scanned (not part of the scan) as a table. */
function withFailedPages(line: string, scanned: UploadNote['scanned']): string {
  if (!scanned?.failed.length) return line;
  const rows = scanned.failed
    .slice(0, 50)
    .map((f) => `| ${markdownCode(f.url, { inTable: true })} | ${markdownText(f.error)} |`);
  return [
    line,
    '',
    '**Pages not scanned** (not part of the scan):',
    '',
    '| Page | Why |',
    '|---|---|',
    ...rows,
  ].join('\n');
}

/** What the gate without a service judged, and where its baseline came from and went. */
export interface LocalNote {
  scanned?: UploadNote['scanned'];
  files: number;
  /** Where this run's baseline was left for the runs that follow (the baseline branch's runs); else null. */
  recordedAt: string | null;
}

/** The gate judged in the step, without a service: the same report, headed by what was judged. */
export function localSummaryMarkdown(
  result: GateResult,
  note: LocalNote,
  annotations?: AnnotationNote,
): string {
  const line =
    `Judged in this step, without a service: ${sourcesText(note.scanned, note.files)}.${locatedText(note.scanned)}` +
    (note.recordedAt ? ` This run's issues were left as the baseline in ${note.recordedAt}.` : '');
  const parts = [`## a11y-gate: ${markdownCode(result.siteId)}`, '', withFailedPages(line, note.scanned), ''];
  parts.push(gateReportSummary(result, null));
  if (annotations) parts.push(annotationLine(result, annotations), '');
  parts.push(newIssuesTable(result, ISSUES_TABLE_LIMIT));
  return parts.join('\n');
}

/** Writes to GITHUB_STEP_SUMMARY when the runner provides one (it does on GitHub; not in other CI). */
export async function writeJobSummary(markdown: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  try {
    await core.summary.addRaw(markdown, true).write();
  } catch (err) {
    // A summary that cannot be written must not change the gate's verdict.
    core.warning(`Could not write the job summary: ${(err as Error).message}`);
  }
}
