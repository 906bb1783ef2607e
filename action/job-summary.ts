import * as core from '@actions/core';
import { newIssuesTable } from '../core/gate/report-issues.js';
import { gateReportSummary } from '../core/gate/report.js';
import type { ScanCreated } from '../client/wire-types.js';
import { type DeployEvent } from '../core/gate/deploy-event.js';
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
function annotationLine(event: DeployEvent, a: AnnotationNote): string {
  const listed = event.new_issues.length;
  if (listed === 0) return '';
  const parts = [`${a.located} of ${listed} listed new issues are located in the repository`];
  if (a.located > 0) parts.push(`${a.annotated} annotated on the diff`);
  if (a.located > a.annotated) {
    parts.push(
      `${a.located - a.annotated} more are listed below only (GitHub shows 10 error and 10 warning annotations per step; the check run of the a11y-gate App annotates every one)`,
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
  const sources: string[] = [];
  const scanned = upload.scanned;
  if (scanned) {
    sources.push(
      `${scanned.pages - scanned.failed.length} of ${scanned.pages} pages scanned in ${scanned.seconds.toFixed(1)} s`,
    );
  }
  if (upload.files > 0 || !scanned)
    sources.push(`${upload.files} result ${upload.files === 1 ? 'file' : 'files'}`);
  const located =
    scanned?.findings !== undefined && scanned.located !== undefined
      ? ` ${scanned.located} of ${scanned.findings} findings located in the repository.`
      : '';
  const line = `Submitted scan \`${upload.scan.id}\`${counts} from ${sources.join(' and ')}${upload.replayed ? ' (replayed: already submitted by this run)' : ''}.${located}`;
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
