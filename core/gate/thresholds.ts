import { THRESHOLD_NAMES, type AppliedGateSettings, type ImpactKey, type ThresholdName } from './settings.js';
import { type Impact } from '../impact.js';
import { plural } from '../text/wording.js';
import { missingShardsText, type ShardStatus } from '../scans/shards.js';

/** The thresholds of a gate decision checked against its counts, with the reasons a failure gives. */

export type ReasonCode =
  | 'no_scan'
  | 'baseline_recorded'
  | 'critical_issues'
  | 'serious_issues'
  | 'max_critical_exceeded'
  | 'max_serious_exceeded'
  | 'max_moderate_exceeded'
  | 'max_minor_exceeded'
  | 'max_total_exceeded'
  /** The site's `claims: strict`: a fix the change claimed is not fixed (core/claims/deploy-claims.ts). */
  | 'claims_not_fixed';

export interface GateReason {
  code: ReasonCode;
  message: string;
}

export interface CategoryCounts {
  new: number;
  existing: number;
  fixed: number;
  waived: number;
}

export interface GateCounts extends CategoryCounts {
  byImpact: Partial<Record<ImpactKey, CategoryCounts>> & Record<Impact, CategoryCounts>;
}

export interface ThresholdResult {
  name: 'fail_on_critical' | 'fail_on_serious' | ThresholdName;
  /** The most issues allowed (`fail_on_*` allows none, so 0). */
  limit: number;
  /** Unwaived issues it counted: new ones, or new and existing ones when `new_only` is false. */
  actual: number;
  passed: boolean;
}

/** Every threshold that is on, checked; a failed one gives a reason. Fixed issues never fail the gate. */
export function checkThresholds(
  counts: GateCounts,
  settings: AppliedGateSettings,
): { thresholds: ThresholdResult[]; reasons: GateReason[] } {
  const thresholds: ThresholdResult[] = [];
  const reasons: GateReason[] = [];
  const tally = (impact: ImpactKey | 'total'): number => {
    if (impact === 'total') return settings.new_only ? counts.new : counts.new + counts.existing;
    const c = counts.byImpact[impact];
    if (!c) return 0;
    return settings.new_only ? c.new : c.new + c.existing;
  };
  const describe = (n: number, impact: Impact | null): string => {
    const what = plural(n, impact ? `${impact} issue` : 'issue');
    return settings.new_only
      ? `${n === 0 ? 'No' : n} new ${what.replace(/^\d+ /, '')}`
      : `${what} (new and existing)`;
  };

  for (const impact of ['critical', 'serious'] as const) {
    const name = impact === 'critical' ? 'fail_on_critical' : 'fail_on_serious';
    if (!settings[name]) continue;
    const actual = tally(impact);
    const passed = actual === 0;
    thresholds.push({ name, limit: 0, actual, passed });
    if (!passed) {
      reasons.push({
        code: impact === 'critical' ? 'critical_issues' : 'serious_issues',
        message: `${describe(actual, impact)} found; ${name} allows none.`,
      });
    }
  }
  for (const name of THRESHOLD_NAMES) {
    const limit = settings[name];
    if (limit === null || limit === undefined) continue;
    const impact = name === 'max_total' ? 'total' : (name.slice(4) as Impact);
    const actual = tally(impact);
    const passed = actual <= limit;
    thresholds.push({ name, limit, actual, passed });
    if (!passed) {
      const subject = describe(actual, impact === 'total' ? null : impact);
      reasons.push({
        code: `${name}_exceeded` as ReasonCode,
        message: `${subject}${impact === 'total' ? ' in all' : ''} ${actual === 1 ? 'exceeds' : 'exceed'} ${name} (at most ${limit} allowed).`,
      });
    }
  }
  return { thresholds, reasons };
}

/** The failure of a gate asked about a commit that has no scan. */
/** The gate passed because this scan is the base branch's first: the baseline is recorded, not judged. */
export function baselineRecordedReason(issues: number): GateReason {
  return {
    code: 'baseline_recorded',
    message:
      `Baseline recorded: the base branch's first scan; its ${plural(issues, 'issue')} ${issues === 1 ? 'is' : 'are'} ` +
      'the debt the site starts from, and later commits are compared with it.',
  };
}

/** A commit's scan sent in shards that has not completed: the gate says what it waits for. */
export interface OpenShardedScan {
  id: string;
  group: string | null;
  shards: ShardStatus;
}

export function noScanReason(siteId: string, sha: string, open?: OpenShardedScan): GateReason {
  if (open) {
    const group = open.group ? ` (group "${open.group}")` : '';
    const waiting =
      open.shards.missing.length > 0
        ? `${missingShardsText(open.shards)}, so it stays open`
        : 'it completes when its final job completes it';
    return {
      code: 'no_scan',
      message:
        `The scan of site "${siteId}" for commit ${sha.slice(0, 12)} is still open${group}: ${waiting}. ` +
        'An open scan is not judged: run the missing shards again (or complete the scan), then trigger the gate.',
    };
  }
  return {
    code: 'no_scan',
    message:
      `No scan of site "${siteId}" exists for commit ${sha.slice(0, 12)}, so there is ` +
      'nothing to judge: submit the scan for this commit before triggering the gate.' +
      // Shas compare exactly: a short one never finds a scan submitted with the full sha.
      (sha.length < 40
        ? ` Scans are found by their exact sha, and this one has ${sha.length} characters: ` +
          'send the same (full) sha to both.'
        : ''),
  };
}
