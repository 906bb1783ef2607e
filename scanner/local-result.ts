import type { DeployCounts, GateIssue, GateResult } from '../core/gate/deploy-event.js';
import { baselineRecordedReason, type GateCounts } from '../core/gate/thresholds.js';
import { IMPACTS, type Impact } from '../core/impact.js';
import { criteriaFromAxeTags } from '../core/scans/wcag-tags.js';
import { truncate } from '../core/text/truncation.js';
import type { Finding } from './findings.js';
import type { LocalVerdict } from './local-gate.js';
import { fingerprintOf } from './sarif.js';

/**
 * The gate without a service, read as the result a deploy event's reports show (`GateResult`): the job
 * summary, the pull request comment and the annotations render it with the same code as a service's
 * decision, so a commit's report reads the same whichever way it was judged. There is no deploy event and
 * no stored scan: `id` and `scan_id` are empty.
 */

export interface LocalResultContext {
  siteId: string;
  sha: string;
  repository: string | null;
  /** The baseline as the report tells it (where it came from, the commit it was made at); null: none. */
  baseline: { reason: string; sha: string | null } | null;
  /**
   * The first run on the base branch, with nothing to compare with: its issues are the debt the site starts
   * from, recorded for the next runs, and the gate passes (as the service's first base-branch scan does).
   */
  recorded: boolean;
  /** Why there is no baseline, when there is none. */
  noBaseline: string;
}

/** The element's markup as a deploy event lists it (the service keeps as many characters). */
const HTML_LISTED = 300;

const impactOf = (text: string | null): Impact | null =>
  (IMPACTS as readonly string[]).includes(text ?? '') ? (text as Impact) : null;

/** A new issue of this scan as a deploy event lists it: never paired, so nothing of a baseline issue. */
export function gateIssueOf(f: Finding): GateIssue {
  return {
    rule: f.rule,
    impact: impactOf(f.impact),
    kind: f.kind,
    message: f.message || null,
    selector: f.selector || null,
    page_url: f.pageUrl,
    wcag: criteriaFromAxeTags(f.tags),
    help_url: f.helpUrl || null,
    html: f.html ? truncate(f.html, HTML_LISTED) : null,
    source: f.source ? { ...f.source } : null,
    fingerprint: fingerprintOf(f),
    match: 'none',
    baseline_issue: null,
    similarity: null,
    evidence: null,
  };
}

function countsOf(c: GateCounts): DeployCounts {
  return { new: c.new, existing: c.existing, fixed: c.fixed, waived: c.waived, by_impact: c.byImpact };
}

export function localGateResult(v: LocalVerdict, context: LocalResultContext): GateResult {
  const e = v.evaluation;
  const recorded = context.recorded && !v.baseline;
  return {
    id: '',
    siteId: context.siteId,
    sha: context.sha,
    repository: context.repository,
    passed: recorded || e.passed,
    reasons: recorded ? [baselineRecordedReason(e.counts.new + e.counts.existing)] : e.reasons,
    scan_id: null,
    baseline:
      v.baseline && context.baseline
        ? {
            scan_id: null,
            sha: context.baseline.sha,
            strategy: 'base_branch',
            reason: context.baseline.reason,
          }
        : { scan_id: null, sha: null, strategy: 'none', reason: context.noBaseline },
    counts: countsOf(e.counts),
    thresholds: e.thresholds,
    new_issues: v.newFindings.map(gateIssueOf),
    new_issues_total: e.newIssuesTotal,
  };
}
