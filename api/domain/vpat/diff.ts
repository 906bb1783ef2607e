import type { Conformance } from './editions.js';
import type { AnswerBasis, AppliedOverride, RuleViolations, VpatReport } from './report.js';

/**
 * What changed between two reports (two versions of one, or two releases' reports): criteria whose level,
 * basis or remarks changed, violations new, resolved or changed in count, and people's decisions added,
 * dropped, changed or made stale. Pure.
 */

interface ReportRef {
  id: string;
  version: number;
  status: VpatReport['status'];
  scan_id: string;
  created_at: string;
}

interface RowState {
  conformance: Conformance;
  basis: AnswerBasis;
  remarks: string;
}

export interface CriterionChange {
  id: string;
  title: string;
  /** Which of level, basis and remarks changed; a row only one report has lists all three. */
  changed: Array<'conformance' | 'basis' | 'remarks'>;
  from: RowState | null;
  to: RowState | null;
}

export interface VpatDiff {
  from: ReportRef;
  to: ReportRef;
  criteria: CriterionChange[];
  violations: {
    new: RuleViolations[];
    resolved: RuleViolations[];
    changed: Array<{ rule: string; from: RuleViolations; to: RuleViolations }>;
  };
  overrides: {
    added: AppliedOverride[];
    dropped: AppliedOverride[];
    changed: Array<{ criterion: string; from: AppliedOverride; to: AppliedOverride }>;
    /** Stale in the newer report, not stale (or absent) in the older one. */
    made_stale: AppliedOverride[];
  };
}

const ref = (r: VpatReport): ReportRef => ({
  id: r.id,
  version: r.version ?? 1,
  status: r.status,
  scan_id: r.scan_id,
  created_at: r.created_at,
});

const state = (c: RowState): RowState => ({ conformance: c.conformance, basis: c.basis, remarks: c.remarks });

function criteriaChanges(from: VpatReport, to: VpatReport): CriterionChange[] {
  const before = new Map(from.criteria.map((c) => [c.id, c]));
  const after = new Map(to.criteria.map((c) => [c.id, c]));
  const out: CriterionChange[] = [];
  for (const c of to.criteria) {
    const b = before.get(c.id);
    if (!b) {
      out.push({
        id: c.id,
        title: c.title,
        changed: ['conformance', 'basis', 'remarks'],
        from: null,
        to: state(c),
      });
      continue;
    }
    const changed = (['conformance', 'basis', 'remarks'] as const).filter((k) => b[k] !== c[k]);
    if (changed.length > 0) out.push({ id: c.id, title: c.title, changed, from: state(b), to: state(c) });
  }
  for (const b of from.criteria) {
    if (!after.has(b.id)) {
      out.push({
        id: b.id,
        title: b.title,
        changed: ['conformance', 'basis', 'remarks'],
        from: state(b),
        to: null,
      });
    }
  }
  return out;
}

function violationChanges(from: VpatReport, to: VpatReport): VpatDiff['violations'] {
  const before = new Map((from.violations ?? []).map((v) => [v.rule, v]));
  const after = new Map((to.violations ?? []).map((v) => [v.rule, v]));
  return {
    new: [...after.values()].filter((v) => !before.has(v.rule)),
    resolved: [...before.values()].filter((v) => !after.has(v.rule)),
    changed: [...after.values()].flatMap((v) => {
      const b = before.get(v.rule);
      return b && (b.issues !== v.issues || b.pages_affected !== v.pages_affected)
        ? [{ rule: v.rule, from: b, to: v }]
        : [];
    }),
  };
}

const sameDecision = (a: AppliedOverride, b: AppliedOverride) =>
  a.conformance === b.conformance &&
  (a.kind ?? 'level') === (b.kind ?? 'level') &&
  a.remarks === b.remarks &&
  a.author === b.author &&
  a.created_at === b.created_at;

function overrideChanges(from: VpatReport, to: VpatReport): VpatDiff['overrides'] {
  const before = new Map(from.overrides.map((o) => [o.criterion, o]));
  const after = new Map(to.overrides.map((o) => [o.criterion, o]));
  return {
    added: to.overrides.filter((o) => !before.has(o.criterion)),
    dropped: from.overrides.filter((o) => !after.has(o.criterion)),
    changed: to.overrides.flatMap((o) => {
      const b = before.get(o.criterion);
      return b && !sameDecision(b, o) ? [{ criterion: o.criterion, from: b, to: o }] : [];
    }),
    made_stale: to.overrides.filter((o) => o.stale && !before.get(o.criterion)?.stale),
  };
}

export function diffReports(from: VpatReport, to: VpatReport): VpatDiff {
  return {
    from: ref(from),
    to: ref(to),
    criteria: criteriaChanges(from, to),
    violations: violationChanges(from, to),
    overrides: overrideChanges(from, to),
  };
}
