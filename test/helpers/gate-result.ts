import type { DeployCounts, GateIssue, GateResult } from '../../core/gate/deploy-event.js';
import type { CategoryCounts } from '../../core/gate/thresholds.js';
import { IMPACTS, type Impact } from '../../core/impact.js';

/** A listed issue of a deploy event, with the given fields and the rest as an unmatched new issue has them. */
export function gateIssue(extra: Partial<GateIssue> & Pick<GateIssue, 'rule'>): GateIssue {
  return {
    impact: null,
    kind: 'violation',
    message: null,
    selector: null,
    page_url: 'https://shop.example/',
    wcag: [],
    help_url: null,
    source: null,
    fingerprint: `${extra.rule} ${extra.selector ?? ''}`,
    match: 'none',
    baseline_issue: null,
    similarity: null,
    evidence: null,
    ...extra,
  };
}

const none: CategoryCounts = { new: 0, existing: 0, fixed: 0, waived: 0 };

/** Per-impact counts of a deploy event: the categories given for each impact, zero elsewhere. */
export function byImpact(
  counts: Partial<Record<Impact, Partial<CategoryCounts> | number>>,
): DeployCounts['by_impact'] {
  const entry = (c: Partial<CategoryCounts> | number | undefined): CategoryCounts =>
    typeof c === 'number' ? { ...none, new: c } : { ...none, ...c };
  return Object.fromEntries(IMPACTS.map((i) => [i, entry(counts[i])])) as DeployCounts['by_impact'];
}

/** A deploy event's reported parts; `new_issues_total` follows `counts.new` unless given. */
export function gateResultOf(
  base: Omit<GateResult, 'new_issues_total'>,
  extra: Partial<GateResult>,
): GateResult {
  const merged = { ...base, ...extra };
  return { ...merged, new_issues_total: extra.new_issues_total ?? merged.counts.new };
}
