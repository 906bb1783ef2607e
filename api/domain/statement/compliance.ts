import { NON_WCAG_STANDARDS } from '../catalog/vpat-chapters.data.js';
import { CONFORMANCE_LEVELS } from '../vpat/editions.js';
import type { ReportCriterion, VpatReport } from '../vpat/report.js';
import { plural } from '../../../core/text/wording.js';
import { listWords } from '../vpat/remarks.js';
import type { Compliance, ComplianceStatus, ConformanceCounts, PrincipleSummary } from './statement.js';

/**
 * The compliance status of a statement, worked out from a published report's rows by one rule
 * (docs/statement.md, "The compliance status"). Only the rows the standard asks for count: WCAG Level A
 * and AA criteria (EN 301 549's web clauses are those criteria) and the rows of EN 301 549's own chapters;
 * Level AAA and Section 508 rows do not. Pure.
 */

/** WCAG's conformance requirement 5 (non-interference): failing one of these can make a whole page unusable. */
export const NON_INTERFERENCE = ['1.4.2', '2.1.2', '2.2.2', '2.3.1'] as const;

const EN_301_549 = NON_WCAG_STANDARDS.find((s) => s.id === 'eu')!;

const PRINCIPLES: Array<Pick<PrincipleSummary, 'id' | 'name'>> = [
  { id: '1', name: 'Perceivable' },
  { id: '2', name: 'Operable' },
  { id: '3', name: 'Understandable' },
  { id: '4', name: 'Robust' },
];

const isFailing = (c: ReportCriterion) =>
  c.conformance === 'partially-supports' || c.conformance === 'does-not-support';

/** The rows the rule counts. */
export function countedRows(report: VpatReport): ReportCriterion[] {
  const enChapters = new Set(report.chapters.filter((ch) => ch.standard === 'eu').map((ch) => ch.id));
  return report.criteria.filter((c) =>
    c.level === null ? enChapters.has(c.chapter) : c.level === 'A' || c.level === 'AA',
  );
}

function countBy(rows: readonly ReportCriterion[]): ConformanceCounts {
  const counts = Object.fromEntries(CONFORMANCE_LEVELS.map((l) => [l, 0])) as ConformanceCounts;
  for (const r of rows) counts[r.conformance]++;
  return counts;
}

function principles(rows: readonly ReportCriterion[]): PrincipleSummary[] {
  return PRINCIPLES.map((p) => {
    const mine = rows.filter((r) => r.level !== null && r.id.split('.')[0] === p.id);
    return { ...p, by_conformance: countBy(mine), failing: mine.filter(isFailing).map((r) => r.id) };
  });
}

/** The criteria by number and title, the first five of them. */
const named = (rows: readonly ReportCriterion[]) =>
  listWords(
    rows.map((r) => `${r.id} ${r.title}`),
    5,
  );

/** Why the best the report can support is "partially": each thing that stands in the way of "fully". */
function partialReasons(report: VpatReport, rows: readonly ReportCriterion[], counts: ConformanceCounts) {
  const reasons: string[] = [];
  const failing = rows.filter(isFailing);
  if (failing.length > 0) {
    reasons.push(
      `${plural(failing.length, 'criterion does', 'criteria do')} not fully support: ` +
        `${counts['does-not-support']} Does Not Support, ${counts['partially-supports']} Partially Supports (${named(failing)}).`,
    );
  }
  if (counts['not-evaluated'] > 0) {
    reasons.push(`${plural(counts['not-evaluated'], 'criterion was', 'criteria were')} not evaluated.`);
  }
  const violated = rows.filter((r) => !isFailing(r) && r.evidence.issues > 0);
  if (violated.length > 0) {
    reasons.push(
      `The scan found violations of ${named(violated)}, which the report does not answer as failing.`,
    );
  }
  if (report.wcag_version === '2.0' || report.level === 'A') {
    reasons.push(
      `The report covers WCAG ${report.wcag_version} Level ${report.level}: EN 301 549 V3.2.1 asks for the Level A and AA criteria of WCAG 2.1.`,
    );
  }
  if (counts.supports === 0) reasons.push('No criterion is answered Supports.');
  return reasons;
}

function decide(report: VpatReport, rows: readonly ReportCriterion[], counts: ConformanceCounts) {
  const applicable = rows.length - counts['not-applicable'];
  const interfering = rows.filter(
    (r) => r.conformance === 'does-not-support' && (NON_INTERFERENCE as readonly string[]).includes(r.id),
  );
  if (interfering.length > 0) {
    return {
      status: 'not' as ComplianceStatus,
      reasons: [
        `${named(interfering)}: Does Not Support. A failure of a non-interference criterion (WCAG conformance requirement 5) can make whole pages unusable.`,
      ],
    };
  }
  if (counts['does-not-support'] * 2 > applicable) {
    return {
      status: 'not' as ComplianceStatus,
      reasons: [
        `${counts['does-not-support']} of the ${applicable} applicable criteria Do Not Support: more than half.`,
      ],
    };
  }
  const reasons = partialReasons(report, rows, counts);
  if (reasons.length > 0) return { status: 'partially' as ComplianceStatus, reasons };
  return {
    status: 'fully' as ComplianceStatus,
    reasons: [
      `Every one of the ${applicable} applicable criteria Supports (${counts['not-applicable']} Not Applicable), and the scan found no violation of them.`,
    ],
  };
}

/** The status and why, the counted rows by level, and each principle's share. */
export function complianceOf(report: VpatReport): Compliance {
  const rows = countedRows(report);
  const counted = countBy(rows);
  const { status, reasons } = decide(report, rows, counted);
  return {
    status,
    standard: {
      label: EN_301_549.label,
      url: EN_301_549.url,
      edition: report.edition,
      wcag_version: report.wcag_version,
      level: report.level,
    },
    reasons,
    counted,
    principles: principles(rows),
  };
}
