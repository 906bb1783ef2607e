import type { DeployEvent } from '../../core/gate/deploy-event.js';
import { sourceText } from '../../core/gate/finding-text.js';
import type { ImpactKey } from '../../core/gate/settings.js';
import type { CategoryCounts } from '../../core/gate/thresholds.js';
import { IMPACTS, type Impact } from '../../core/impact.js';
import { criteriaFromAxeTags } from '../../core/scans/wcag-tags.js';
import { plural } from '../../core/text/wording.js';
import { normalizeUrl, pageKey } from '../../core/url-normalisation.js';
import type { BaselineEntry } from '../baseline-file.js';
import { findingsOf, type Finding } from '../findings.js';
import type { Ignore } from '../ignores.js';
import type { LocalVerdict } from '../local-gate.js';
import type { ScanRun } from '../scan.js';
import type { ElementShot } from '../screenshots.js';
import { fingerprintOf } from '../sarif.js';

/**
 * What the HTML report shows, drawn from one run in any of its modes: the gate without a service (with a
 * baseline file or none), the service's deploy event, or a scan no gate judged. Pure: render.ts writes it.
 */

/** Where an issue stands: against the baseline (`fixed`: an entry no longer found), or `found` unjudged. */
export type ReportStatus = 'new' | 'existing' | 'ignored' | 'fixed' | 'found';
export const REPORT_STATUSES: readonly ReportStatus[] = ['new', 'existing', 'ignored', 'fixed', 'found'];

export interface ReportItem {
  status: ReportStatus;
  impact: Impact | null;
  rule: string;
  /** The page as scanned; for a fixed entry, the page's path as the baseline file keeps it. */
  page: string;
  /** The page as the filter and the baseline file name it: its path, without the host. */
  pageKey: string;
  selector: string | null;
  html: string | null;
  /** `path:line` where the scanner located the element. */
  source: string | null;
  /** axe-core's failure summary, the rule's one-line help and its page. */
  message: string | null;
  help: string | null;
  helpUrl: string | null;
  /** WCAG criteria (`1.1.1`) and axe-core's tags. */
  wcag: string[];
  tags: string[];
  picture: ElementShot | null;
  /** Why it is set aside: the ignore's or the baseline entry's reason. */
  reason: string | null;
}

export interface ReportCounts extends CategoryCounts {
  byImpact: Partial<Record<ImpactKey, CategoryCounts>>;
}

export interface ReportDecision {
  /** `recorded`: the run wrote the baseline; `none`: no gate was asked. */
  outcome: 'passed' | 'failed' | 'recorded' | 'none';
  headline: string;
  /** What the scan was compared with. */
  basis: string;
  reasons: string[];
  notes: string[];
  /** Null when no gate counted (the items are then counted as found). */
  counts: ReportCounts | null;
  /** What issues left aside are called: the configuration's ignores, or the service's waivers. */
  leftAside: 'ignored' | 'waived';
  detailsUrl: string | null;
}

export interface ReportPage {
  url: string;
  title: string | null;
  violations: number;
  /** Why the page was not scanned. */
  error: string | null;
}

export interface HtmlReport {
  generatedAt: Date;
  engine: string;
  pages: ReportPage[];
  /** axe-core's "needs review" results: not judged by the gate, not listed. */
  needsReview: number;
  decision: ReportDecision;
  items: ReportItem[];
}

const pictureKey = (page: string, rule: string, selector: string) => `${page}\n${rule}\n${selector}`;

function picturesOf(run: ScanRun): Map<string, ElementShot> {
  const out = new Map<string, ElementShot>();
  for (const page of run.pages)
    if (page.ok) for (const s of page.screenshots) out.set(pictureKey(page.url, s.rule, s.selector), s);
  return out;
}

const impactOf = (impact: string | null): Impact | null =>
  (IMPACTS as readonly string[]).includes(impact ?? '') ? (impact as Impact) : null;

function findingItem(
  f: Finding,
  status: ReportStatus,
  pictures: Map<string, ElementShot>,
  reason: string | null = null,
): ReportItem {
  return {
    status,
    impact: impactOf(f.impact),
    rule: f.rule,
    page: f.pageUrl,
    pageKey: pageKey(normalizeUrl(f.pageUrl) ?? f.pageUrl),
    selector: f.selector || null,
    html: f.html || null,
    source: sourceText(f),
    message: f.message || null,
    help: f.help || null,
    helpUrl: f.helpUrl || null,
    wcag: criteriaFromAxeTags(f.tags ?? []),
    tags: f.tags ?? [],
    picture: pictures.get(pictureKey(f.pageUrl, f.rule, f.selector)) ?? null,
    reason,
  };
}

function fixedItem(e: BaselineEntry): ReportItem {
  return {
    status: 'fixed',
    impact: e.impact,
    rule: e.rule,
    page: e.page,
    pageKey: e.page,
    selector: e.selector,
    html: e.html ?? null,
    source: e.source ?? null,
    message: null,
    help: null,
    helpUrl: null,
    wcag: [],
    tags: [],
    picture: null,
    reason: e.reason ?? null,
  };
}

const SEVERITY: ImpactKey[] = [...IMPACTS, 'unknown'];
/** Status, then impact (most severe first), then page and rule: the order the report reads in. */
function ordered(items: ReportItem[]): ReportItem[] {
  const rank = (i: ReportItem) =>
    REPORT_STATUSES.indexOf(i.status) * 10 + SEVERITY.indexOf(i.impact ?? 'unknown');
  return items
    .map((item, n) => ({ item, n }))
    .sort((a, b) => rank(a.item) - rank(b.item) || a.n - b.n)
    .map((x) => x.item);
}

function base(run: ScanRun, decision: ReportDecision, items: ReportItem[], now: Date): HtmlReport {
  const findings = findingsOf(run.pages);
  return {
    generatedAt: now,
    engine: `${run.engine.name} ${run.engine.version}`,
    pages: run.pages.map((p) =>
      p.ok
        ? {
            url: p.url,
            title: p.title || null,
            violations: p.axe.violations.reduce((n, v) => n + v.nodes.length, 0),
            error: null,
          }
        : { url: p.url, title: null, violations: 0, error: p.error },
    ),
    needsReview: findings.filter((f) => f.kind === 'incomplete').length,
    decision,
    items: ordered(items),
  };
}

const violationsOf = (run: ScanRun) => findingsOf(run.pages).filter((f) => f.kind === 'violation');

/** An ignore's reason by the id the local gate gives it (`ignore 2` is the second of the configuration). */
function ignoreReason(id: string, ignores: readonly Ignore[]): string | null {
  const n = /^ignore (\d+)$/.exec(id);
  return n ? (ignores[Number(n[1]) - 1]?.reason ?? null) : null;
}

function entryLine(e: BaselineEntry): string {
  return `${e.rule} ${e.selector ?? '(the page)'} on ${e.page}${e.source ? ` (${e.source})` : ''}`;
}

/**
 * The gate without a service: statuses from the verdict against the baseline file (or with none, all new).
 * `findings` are the ones the verdict judged: its lists hold those very objects.
 */
export function localReport(
  run: ScanRun,
  findings: readonly Finding[],
  v: LocalVerdict,
  o: { baselineFile: string; ignores: readonly Ignore[]; recorded: boolean; now: Date },
): HtmlReport {
  const violations = findings.filter((f) => f.kind === 'violation');
  const pictures = picturesOf(run);
  const isNew = new Set(v.newFindings);
  const ignored = new Map(
    v.evaluation.waivedIssues.map((w) => [violations[w.issue.ref as number], w.waiverId]),
  );
  const items = violations.map((f) => {
    const ignore = ignored.get(f);
    if (ignore) return findingItem(f, 'ignored', pictures, ignoreReason(ignore, o.ignores));
    return findingItem(f, isNew.has(f) ? 'new' : 'existing', pictures);
  });
  items.push(...v.fixed.map(fixedItem));
  const e = v.evaluation;
  const decision: ReportDecision = {
    outcome: o.recorded ? 'recorded' : e.passed ? 'passed' : 'failed',
    headline: o.recorded
      ? `Baseline written: ${plural(v.recorded.length, 'issue')} in ${o.baselineFile}`
      : `Gate ${e.passed ? 'passed' : 'FAILED'}: ${plural(e.counts.new, 'new issue')}`,
    basis: v.baseline
      ? `Compared with the baseline file ${o.baselineFile}.`
      : `No baseline file yet (${o.baselineFile}): every issue counts as new.`,
    reasons: o.recorded ? [] : e.reasons.map((r) => r.message),
    notes: [
      ...v.lapsed.map(
        (l) => `Baseline entry past its date (until ${l.until}), counted as new: ${entryLine(l)}`,
      ),
      ...v.lapsedIgnores.map(
        (i) =>
          `Ignore past its date (until ${i.until}), no longer applied: ` +
          `${[i.rule, i.selector, i.url].filter(Boolean).join(' ')}: ${i.reason}`,
      ),
    ],
    counts: e.counts,
    leftAside: 'ignored',
    detailsUrl: null,
  };
  return base(run, decision, items, o.now);
}

/**
 * The service's deploy event: an issue is new when the event lists its fingerprint among the new issues,
 * waived when among the waived ones, existing otherwise; the counts (fixed ones too) are the event's.
 */
export function serviceReport(
  run: ScanRun,
  event: DeployEvent,
  o: { detailsUrl: string | null; now: Date; notes?: string[] },
): HtmlReport {
  const pictures = picturesOf(run);
  const fresh = new Set(event.new_issues.map((i) => i.fingerprint));
  const waived = new Set(event.waived_issues.map((i) => i.fingerprint));
  const items = violationsOf(run).map((f) => {
    const fp = fingerprintOf(f);
    return findingItem(f, waived.has(fp) ? 'ignored' : fresh.has(fp) ? 'new' : 'existing', pictures);
  });
  const recorded = event.reasons.some((r) => r.code === 'baseline_recorded');
  const listed = event.new_issues.length;
  const total = event.new_issues_total ?? listed;
  const { by_impact: byImpact, ...counts } = event.counts;
  const decision: ReportDecision = {
    outcome: recorded ? 'recorded' : event.passed ? 'passed' : 'failed',
    headline: recorded
      ? 'Gate passed: baseline recorded'
      : `Gate ${event.passed ? 'passed' : 'FAILED'}: ${plural(event.counts.new, 'new issue')}`,
    basis: event.baseline?.reason ?? 'Judged by the service.',
    reasons: event.reasons.map((r) => r.message),
    notes: [
      ...(o.notes ?? []),
      ...(total > listed
        ? [
            `The deploy event lists ${listed} of the ${total} new issues: the others show here as existing. ` +
              'The deploy event has them all.',
          ]
        : []),
    ],
    counts: { ...counts, byImpact },
    leftAside: 'waived',
    detailsUrl: o.detailsUrl,
  };
  return base(run, decision, items, o.now);
}

/** A scan no gate judged (sent to the service without --gate, or a shard whose group is still open). */
export function unjudgedReport(run: ScanRun, why: string, now: Date): HtmlReport {
  const pictures = picturesOf(run);
  const items = violationsOf(run).map((f) => findingItem(f, 'found', pictures));
  const decision: ReportDecision = {
    outcome: 'none',
    headline: `No gate decision: ${plural(items.length, 'violation')} found`,
    basis: why,
    reasons: [],
    notes: [],
    counts: null,
    leftAside: 'ignored',
    detailsUrl: null,
  };
  return base(run, decision, items, now);
}
