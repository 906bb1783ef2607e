import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { htmlSnippet, sourceText } from '../core/gate/finding-text.js';
import { IMPACTS, type Impact } from '../core/impact.js';
import { pageKey, normalizeUrl } from '../core/url-normalisation.js';
import type { Finding } from './findings.js';
import { fingerprintOf } from './sarif.js';
import { until } from './ignores.js';

/**
 * The baseline file (`.a11y-gate/baseline.json`), committed with the code: the issues a site already has,
 * which the gate without a service compares a scan with. One entry per issue identity (the fingerprint the
 * service gives it, and the element), in a fixed order with fixed key order, so that a change to the file
 * reads in review as the issues that came and went.
 */

/** A baseline file that cannot be read as one: the run stops with this message (a usage error). */
export class BaselineFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BaselineFileError';
  }
}

export const BASELINE_VERSION = 1;
/** Where the baseline file is kept unless the CLI's `--baseline` or the Action's `baseline` names another. */
export const DEFAULT_BASELINE = '.a11y-gate/baseline.json';
/** Far more than any site's debt; a larger file is not read. */
export const BASELINE_MAX_BYTES = 32 * 1024 * 1024;
/** The element's markup kept: enough for the matcher to tell elements apart, short enough to review. */
const HTML_KEPT = 200;

const line = z.string().regex(/^[^\r\n]*$/, 'must be one line');
const BaselineEntrySchema = z.strictObject({
  page: line.min(1),
  /** The viewport the issue was found at, when the scan named one (part of the fingerprint). */
  viewport: line.min(1).optional(),
  rule: line.min(1),
  impact: z.enum(IMPACTS).nullable(),
  selector: line.nullable(),
  source: line.nullable().optional(),
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha-256 in hex'),
  html: z
    .string()
    .max(HTML_KEPT * 4)
    .nullable()
    .optional(),
  count: z.number().int().min(2).optional(),
  reason: line.min(1).optional(),
  until: until.optional(),
});
export type BaselineEntry = z.infer<typeof BaselineEntrySchema>;

const BaselineFileSchema = z.strictObject({
  version: z.literal(BASELINE_VERSION),
  issues: z.array(BaselineEntrySchema),
});

/** A page as the baseline names it: its path (query and single-page-app route kept, host left out). */
export function pageOfUrl(url: string): string {
  return pageKey(normalizeUrl(url) ?? url);
}

/** An issue of this scan as the baseline writes it (without a reason or date of its own yet). */
export function entryOf(f: Finding): BaselineEntry {
  return {
    page: pageOfUrl(f.pageUrl),
    ...(f.viewport ? { viewport: f.viewport } : {}),
    rule: f.rule,
    impact: (IMPACTS as readonly string[]).includes(f.impact ?? '') ? (f.impact as Impact) : null,
    selector: f.selector || null,
    source: sourceText({ source: f.source }),
    fingerprint: fingerprintOf(f),
    html: htmlSnippet(f.html, HTML_KEPT),
  };
}

const text = (v: string | null | undefined) => v ?? '';
/** Page, viewport, rule, selector, then what tells equal selectors apart: the order reviewers read in. */
function compare(a: BaselineEntry, b: BaselineEntry): number {
  for (const k of ['page', 'viewport', 'rule', 'selector', 'fingerprint', 'html', 'source'] as const) {
    const x = text(a[k]);
    const y = text(b[k]);
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

const identity = (e: BaselineEntry) => `${e.fingerprint}\n${text(e.html)}`;

/**
 * The entries in their stable order, each identity once (an element found twice, as masked generated names
 * can make it, is one entry with a `count`), keys in one order: the same issues always give the same bytes.
 */
export function normaliseEntries(entries: readonly BaselineEntry[]): BaselineEntry[] {
  const byIdentity = new Map<string, BaselineEntry>();
  for (const e of entries) {
    const same = byIdentity.get(identity(e));
    if (same) same.count = (same.count ?? 1) + (e.count ?? 1);
    else byIdentity.set(identity(e), { ...e });
  }
  return [...byIdentity.values()].sort(compare).map((e) => ({
    page: e.page,
    ...(e.viewport ? { viewport: e.viewport } : {}),
    rule: e.rule,
    impact: e.impact,
    selector: e.selector,
    ...(e.source ? { source: e.source } : {}),
    fingerprint: e.fingerprint,
    ...(e.html ? { html: e.html } : {}),
    ...(e.count && e.count > 1 ? { count: e.count } : {}),
    ...(e.reason ? { reason: e.reason } : {}),
    ...(e.until ? { until: e.until } : {}),
  }));
}

export function baselineText(entries: readonly BaselineEntry[]): string {
  return `${JSON.stringify({ version: BASELINE_VERSION, issues: normaliseEntries(entries) }, null, 2)}\n`;
}

/** The entries of the baseline file, or null when there is none; a file that is not one is a usage error. */
export async function readBaseline(file: string): Promise<BaselineEntry[] | null> {
  let size: number;
  try {
    size = (await fs.stat(file)).size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  if (size > BASELINE_MAX_BYTES)
    throw new BaselineFileError(
      `${file}: larger than ${BASELINE_MAX_BYTES / 1024 / 1024} MiB: not a baseline file`,
    );
  return parseBaseline(await fs.readFile(file, 'utf8'), file);
}

/**
 * A baseline file's text read as its entries, wherever it came from (`name` says where, in the message): a
 * file of the checkout, or one from another run's artifact, which is read as untrusted.
 */
export function parseBaseline(text: string, name: string): BaselineEntry[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new BaselineFileError(`${name}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = BaselineFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    throw new BaselineFileError(`${name}: "${at.replace(/^\./, '') || '(the file)'}" ${issue.message}`);
  }
  return parsed.data.issues;
}

export async function writeBaseline(file: string, entries: readonly BaselineEntry[]): Promise<void> {
  await fs.mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await fs.writeFile(file, baselineText(entries));
}
