import type { GateCounts } from '../../../core/gate/thresholds.js';
import type { ImpactKey } from '../../../core/gate/settings.js';
import type { EngineTally, PairedIssue } from '../../../core/gate/evaluation.js';
import type { GatePage, GateScanIssue } from '../../../core/gate/issues.js';
import type { DeployEvent, GateIssue } from '../../../core/gate/deploy-event.js';
import type { EngineChange } from '../../../core/gate/engine.js';
import type { DeployRecord, StoredEngineChange, StoredGateIssue } from '../../store/gate/deploys.js';
import type { IssueDetail } from '../../store/gate/compared-scans.js';
import { truncate } from '../../../core/text/truncation.js';

/**
 * How a deploy decision reads in the API: the listed issues with their details and how each was
 * matched, and the stored record as the event the API answers and webhooks carry.
 */

/** What is known of each baseline issue the listed head issues were paired with. */
export interface BaselineView {
  selector: string | null;
  page: GatePage;
}

export function issueView(
  item: PairedIssue | GateScanIssue,
  details: ReadonlyMap<number, IssueDetail>,
  baselineViews: ReadonlyMap<number, BaselineView>,
): GateIssue {
  const paired: PairedIssue =
    'issue' in item ? item : { issue: item, match: 'none', baseline: null, similar: null };
  const { issue } = paired;
  const d = details.get(Number(issue.ref));
  const b = paired.baseline;
  const bv = b ? baselineViews.get(Number(b.ref)) : undefined;
  return {
    rule: d?.rule ?? issue.rule,
    impact: d?.impact ?? issue.impact,
    kind: d?.kind ?? issue.kind,
    message: d?.message ?? null,
    selector: d?.selector ?? issue.selector,
    page_url: d?.pageUrl ?? issue.page.url,
    // Only a page scanned at a named viewport says so: events and pages without one keep their shape.
    ...(d?.viewport ? { viewport: d.viewport } : {}),
    wcag: d?.wcag ?? [],
    help_url: d?.helpUrl ?? null,
    html: d?.html ? snippet(d.html) : null,
    source: d?.source ?? null,
    fingerprint: issue.fingerprint,
    match: paired.match,
    baseline_issue: b
      ? {
          fingerprint: b.fingerprint,
          // A fingerprint pair is the same normalised selector on the same page: the head's stand in.
          selector: bv?.selector ?? b.selector ?? d?.selector ?? issue.selector,
          page_url: bv?.page.url || b.page.url || d?.pageUrl || issue.page.url,
        }
      : null,
    similarity: paired.similar?.score ?? null,
    evidence: paired.similar?.evidence ?? null,
  };
}

/** The element's markup as a deploy event lists it: enough to recognise the element, not the whole subtree. */
export const HTML_SNIPPET_CHARS = 300;
function snippet(html: string): string {
  return truncate(html, HTML_SNIPPET_CHARS);
}

/**
 * The counts a deploy event records. Under an engine change every impact also says how many of its issues
 * differ because of it (`engine_changed`, both sides), as the total does.
 */
export function countsView(c: GateCounts, engine: EngineTally | null): DeployEvent['counts'] {
  const byImpact = engine
    ? (Object.fromEntries(
        Object.entries(c.byImpact).map(([k, v]) => [
          k,
          { ...v, engine_changed: engine.byImpact[k as ImpactKey] ?? 0 },
        ]),
      ) as DeployEvent['counts']['by_impact'])
    : c.byImpact;
  return {
    new: c.new,
    existing: c.existing,
    fixed: c.fixed,
    waived: c.waived,
    engine_changed: engine ? engine.appeared + engine.disappeared : 0,
    by_impact: byImpact,
  };
}

/** A head issue listed because the engine changed: labelled so wherever it is shown. */
export function engineChangedView(issue: GateIssue): GateIssue {
  return { ...issue, engine_change: true };
}

type Matched<T> = T & Pick<GateIssue, 'match' | 'baseline_issue' | 'similarity' | 'evidence'>;

/** Events recorded before issues carried their match: new ones were unmatched, waived ones by status. */
function withMatch<T extends StoredGateIssue & { status?: 'new' | 'existing' }>(issue: T): Matched<T> {
  const legacy = issue.status === 'existing' ? 'fingerprint' : 'none';
  return {
    ...issue,
    match: issue.match ?? legacy,
    baseline_issue: issue.baseline_issue ?? null,
    similarity: issue.similarity ?? null,
    evidence: issue.evidence ?? null,
    // Events recorded before locations carried a column and a method.
    source: issue.source
      ? { ...issue.source, column: issue.source.column ?? null, method: issue.source.method ?? null }
      : null,
  };
}

function engineChangeOf(c: StoredEngineChange): EngineChange {
  const { head, baseline, engine_upgrade, appeared, disappeared } = c;
  return { head, baseline, engine_upgrade, appeared, disappeared };
}

type DeployKey = Pick<DeployRecord, 'id' | 'siteId' | 'sha' | 'ref'>;

/** The fields every JSON view of a deploy event opens with (the full event and the history's lines). */
export function deployIdentity(d: DeployKey): {
  id: string;
  siteId: string;
  sha: string;
  ref: string | null;
} {
  return { id: d.id, siteId: d.siteId, sha: d.sha, ref: d.ref };
}

/** The decision as both views show it: a status word beside the boolean. */
export function deployOutcome(passed: boolean): { status: 'passed' | 'failed'; passed: boolean } {
  return { status: passed ? 'passed' : 'failed', passed };
}

export function present(d: DeployRecord): DeployEvent {
  return {
    ...deployIdentity(d),
    repository: d.repository,
    ...deployOutcome(d.passed),
    reasons: d.reasons,
    scan_id: d.scanId,
    baseline: d.baseline
      ? {
          scan_id: d.baseline.scanId,
          sha: d.baseline.sha,
          strategy: d.baseline.strategy,
          reason: d.baseline.reason,
        }
      : null,
    coverage: d.coverage,
    served: d.served,
    // Events recorded before engine changes were told apart had neither field.
    settings: { ...d.settings, engine_upgrade: d.settings.engine_upgrade ?? 'warn' },
    counts: { ...d.counts, engine_changed: d.counts.engine_changed ?? 0 },
    thresholds: d.thresholds,
    new_issues: d.newIssues.map(withMatch),
    new_issues_total: d.newIssuesTotal,
    waived_issues: d.waivedIssues.map(withMatch),
    similar_issues: d.similarIssues.map(withMatch),
    similar_issues_total: d.similarIssuesTotal,
    engine_change: d.engineChange ? engineChangeOf(d.engineChange) : null,
    engine_changed_issues: (d.engineChange?.issues ?? []).map(withMatch),
    claims: d.claims,
    check_run: d.checkRun,
    created_at: d.createdAt,
  };
}
