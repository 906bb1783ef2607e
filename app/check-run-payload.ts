/**
 * Turns a deploy-gate result into the payload of a GitHub check run: conclusion, title, the gate report's
 * markdown (api/domain/gate/report.ts) and annotations. Pure: no I/O, so it is unit tested and also renders
 * the README sample (`npm run docs:generate`).
 */
import { engineChangedList, newIssuesTable } from '../core/gate/report-issues.js';
import { byteLength, GITHUB_TEXT_LIMIT, gateReportSummary, gateReportTitle } from '../core/gate/report.js';
import { truncate } from '../core/text/truncation.js';
import { atViewport } from '../core/text/wording.js';
import { oneLine, plainText } from '../core/text/github-markdown.js';
import { type GateIssue, type GateResult } from '../core/gate/deploy-event.js';
import { fixHeading, fixSteps, htmlSnippet, oneLineMessage } from '../core/gate/finding-text.js';

/** GitHub accepts at most 50 annotations per create/update request. */
export const ANNOTATIONS_PER_REQUEST = 50;
export const CHECK_NAME_PREFIX = 'a11y-gate / ';
/** GitHub accepts at most 50 images per request; they go with the create request only. */
export const IMAGES_PER_REQUEST = 50;

/** A picture shown in the check run: an element screenshot behind its signed link. */
export interface CheckRunImage {
  alt: string;
  image_url: string;
  caption?: string;
}

/** An issue's element screenshot as the service links it (api/services/scans/screenshot-links.ts). */
export interface IssuePicture {
  alt: string;
  url: string | undefined;
}

export interface CheckRunAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  /** Only on a one-line annotation (GitHub ignores columns across lines). */
  start_column?: number;
  end_column?: number;
  annotation_level: 'failure' | 'warning' | 'notice';
  title: string;
  message: string;
  raw_details?: string;
}

export interface CheckRunPayload {
  name: string;
  head_sha: string;
  external_id: string;
  details_url: string;
  status: 'completed';
  conclusion: 'success' | 'failure';
  output: { title: string; summary: string; text: string };
  /** Every annotation; the publisher sends them in batches of ANNOTATIONS_PER_REQUEST. */
  annotations: CheckRunAnnotation[];
  /** The new issues' element screenshots, at most IMAGES_PER_REQUEST, sent with the create request. */
  images: CheckRunImage[];
}

export function checkRunName(siteId: string): string {
  return `${CHECK_NAME_PREFIX}${siteId}`;
}

export function buildCheckRun(
  result: GateResult,
  options: { detailsUrl: string; pictures?: ReadonlyMap<string, IssuePicture> },
): CheckRunPayload {
  return {
    name: checkRunName(result.siteId),
    head_sha: result.sha,
    external_id: result.id,
    details_url: options.detailsUrl,
    status: 'completed',
    conclusion: result.passed ? 'success' : 'failure',
    output: {
      title: gateReportTitle(result),
      summary: gateReportSummary(result, options.detailsUrl),
      text: checkRunText(result),
    },
    annotations: annotationsFor(result.new_issues),
    images: imagesFor(result.new_issues, options.pictures ?? new Map()),
  };
}

/** The pictures of the new issues that have one with a link, in the issues' order (most severe first). */
export function imagesFor(issues: GateIssue[], pictures: ReadonlyMap<string, IssuePicture>): CheckRunImage[] {
  const out: CheckRunImage[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const picture = pictures.get(issue.fingerprint);
    if (!picture?.url || seen.has(issue.fingerprint)) continue;
    seen.add(issue.fingerprint);
    const page = atViewport(issue.page_url, issue.viewport);
    const where = issue.selector ? `${issue.selector} on ${page}` : page;
    out.push({
      alt: truncate(picture.alt, 1_000),
      image_url: picture.url,
      caption: truncate(`${issue.rule}${issue.impact ? ` (${issue.impact})` : ''}: ${where}`, 1_000),
    });
    if (out.length === IMAGES_PER_REQUEST) break;
  }
  return out;
}

/** The new issues, then (apart, in what room is left) the issues that differ because the engine changed. */
function checkRunText(result: GateResult): string {
  const table = newIssuesTable(result);
  return table + engineChangedList(result, GITHUB_TEXT_LIMIT - byteLength(table));
}

/** Issues that know their source location, as check-run annotations at their line (and column). */
export function annotationsFor(issues: GateIssue[]): CheckRunAnnotation[] {
  const out: CheckRunAnnotation[] = [];
  for (const issue of issues) {
    if (!issue.source?.path) continue;
    const line = issue.source.line && issue.source.line > 0 ? issue.source.line : 1;
    const column = issue.source.line && issue.source.column ? issue.source.column : null;
    const details = [
      issue.page_url ? `Page: ${atViewport(issue.page_url, issue.viewport)}` : '',
      issue.selector ? `Selector: ${issue.selector}` : '',
      issue.wcag?.length ? `WCAG: ${issue.wcag.join(', ')}` : '',
      issue.help_url ? `Help: ${issue.help_url}` : '',
    ].filter(Boolean);
    out.push({
      path: issue.source.path,
      start_line: line,
      end_line: line,
      ...(column ? { start_column: column, end_column: column } : {}),
      annotation_level: issue.impact === 'critical' || issue.impact === 'serious' ? 'failure' : 'warning',
      title: truncate(oneLine(`${issue.rule}${issue.impact ? ` (${issue.impact})` : ''}`), 255),
      message: truncate(plainText(annotationMessage(issue)), 4_000),
      ...(details.length ? { raw_details: truncate(plainText(details.join('\n')), 4_000) } : {}),
    });
  }
  return out;
}

/** The finding in plain words: what is wrong, the element, and how to fix it as a short list. */
export function annotationMessage(issue: GateIssue): string {
  const html = htmlSnippet(issue.html, 300);
  const steps = fixSteps(issue.message);
  return [
    oneLineMessage(issue),
    ...(html ? [`Element: ${html}`] : []),
    ...(steps.length > 1 ? [`${fixHeading(issue.message)}:`, ...steps.map((s) => `- ${s}`)] : []),
  ].join('\n');
}

/** Splits annotations into the batches GitHub accepts (the first goes with the create request). */
export function annotationBatches(annotations: CheckRunAnnotation[]): CheckRunAnnotation[][] {
  const batches: CheckRunAnnotation[][] = [];
  for (let i = 0; i < annotations.length; i += ANNOTATIONS_PER_REQUEST) {
    batches.push(annotations.slice(i, i + ANNOTATIONS_PER_REQUEST));
  }
  return batches;
}
