import type { RelatedFailure } from '../catalog/act-relations.js';
import type { RuleCoverage } from './rule-coverage.js';
import { CONFORMANCE_LEVELS, type CatalogRow, type Conformance, type EditionCatalog } from './editions.js';
import { addressCount, type CriterionTallies, type ScanEvidence } from './evidence-tally.js';
import { foldEvidence, foldResults, type EvidenceFold } from './evidence-fold.js';
import { suggestNotApplicable } from './not-applicable.js';
import { answerOf, decideFromEvidence, evidenceOf, type EvidenceFact, type FactContext } from './facts.js';
import {
  noFailuresSentence,
  overriddenRelatedSentence,
  relatedSentence,
  remarksFor,
  staleSentence,
  withoutDeveloperLinks,
} from './remarks.js';
import type {
  AppliedOverride,
  CriterionEvidence,
  OverrideRecord,
  ReportCriterion,
  ReportSummary,
  RuleViolations,
} from './report.js';
import { applyAssessment, verdictsOf, type HumanEvidence } from './human-evidence.js';

/**
 * Derives every row of a VPAT / ACR from one scan's evidence plus people's decisions:
 * - violations (waived ones too) on more than half of the scanned pages → does-not-support; on half or
 *   fewer → partially-supports (a failure needs no confirmation);
 * - anything else → not-evaluated with its basis, waiting for a person: automated evidence never grants
 *   `supports`, it can only be confirmed (basis `rules-passed`);
 * - failures W3C's ACT rules relate to a criterion flag it for review;
 * - a person's level always wins (`stale` when the evidence contradicts it); a confirmation applies only
 *   where the evidence is `rules-passed` with no related failures, otherwise it is refused.
 * Pure: the caller reads the scan (aggregated) and the rules from axe-core.
 */

export interface RefusedDecision {
  decision: OverrideRecord;
  reason: string;
}

export interface Derivation {
  criteria: ReportCriterion[];
  overrides: AppliedOverride[];
  /** Confirmations the evidence does not allow (the row is answered from the evidence instead). */
  refused: RefusedDecision[];
  summary: ReportSummary;
  violations: RuleViolations[];
}

type BaseAnswer = Omit<ReportCriterion, 'id' | 'title' | 'level' | 'chapter'> & { fact?: EvidenceFact };

const STALE_LABELS: Partial<Record<Conformance, string>> = {
  supports: 'Supports',
  'not-applicable': 'Not Applicable',
};

/**
 * The evidence contradicts an override that claims more than it shows: support (or irrelevance) although
 * violations were found, or partial support although violations are on more than half of the pages (the
 * evidence's does-not-support: "the majority of product functionality does not meet the criterion").
 */
export function staleReason(override: OverrideRecord, evidence: CriterionEvidence): string | null {
  if (evidence.issues === 0) return null;
  const majority = evidence.pages_affected * 2 > evidence.pages_total;
  const label =
    STALE_LABELS[override.conformance] ??
    (majority && override.conformance === 'partially-supports' ? 'Partially Supports' : undefined);
  return label ? staleSentence(label, evidence) : null;
}

/** A row still lacks a person's decision (Level AAA may stay Not Evaluated when a person says so). */
export function isUndecided(c: ReportCriterion): boolean {
  if (!c.needs_review) return false;
  return !(c.level === 'AAA' && c.source === 'override' && c.conformance === 'not-evaluated');
}

/** Only a row the evidence leaves to a person (clean rules everywhere) may carry a suggestion. */
function suggestionFor(fact: EvidenceFact | undefined, pages: ScanEvidence['pages']) {
  const suggestion =
    fact?.kind === 'rules-passed'
      ? suggestNotApplicable(
          fact.ran.map((r) => r.rule),
          pages,
        )
      : null;
  return suggestion ? { suggestion } : {};
}

export function deriveReport(input: {
  catalog: EditionCatalog;
  coverage: RuleCoverage;
  evidence: ScanEvidence;
  /** At most one per criterion, already validated against the catalog. */
  overrides: readonly OverrideRecord[];
  /** The evidence's tallies, when the caller folded them batch by batch (else folded here at once). */
  fold?: EvidenceFold;
  /** Keep the developers' "How to fix" links in the evidence's remarks (default: kept). */
  developerLinks?: boolean;
  /** People's results on a page sample, laid over the automated evidence before anything is summarised. */
  human?: HumanEvidence;
}): Derivation {
  const { catalog, coverage, evidence } = input;
  const folded = foldResults(input.fold ?? foldEvidence(evidence, coverage), evidence);
  const { byPage, tallies, related } = folded;
  const ctx: FactContext = {
    coverage,
    pagesTotal: addressCount(evidence.pages),
    countPages: folded.countPages,
    pageAddress: folded.addresses,
    rulesRan: new Set(byPage.pagesByRule.keys()),
    rulesRunKnown: byPage.known,
    ranOn: byPage.pagesByRule,
    pageUrl: new Map(evidence.pages.map((p) => [p.index, p.url])),
    waiversKnown: evidence.waiversKnown ?? false,
    suspect: evidence.suspect ?? false,
    ruleResults: folded.ruleResults,
  };
  const decisions = new Map(input.overrides.map((o) => [o.criterion, o]));

  const criteria: ReportCriterion[] = [];
  const applied: AppliedOverride[] = [];
  const refused: RefusedDecision[] = [];
  for (const chapter of catalog.chapters) {
    for (const row of chapter.rows) {
      const head = { id: row.id, title: row.title, level: row.level, chapter: chapter.id };
      const base = baseAnswer(row, tallies, related.get(row.id) ?? [], ctx);
      const { fact, ...answer } = base;
      const decision = decisions.get(row.id);
      if (!decision) {
        criteria.push({ ...head, ...answer, ...suggestionFor(fact, evidence.pages) });
      } else if (decision.kind === 'confirm') {
        const reason = confirmRefusal(base);
        if (reason || fact?.kind !== 'rules-passed') {
          refused.push({ decision, reason: reason ?? 'nothing to confirm' });
          criteria.push({ ...head, ...answer });
        } else {
          const o: AppliedOverride = { ...decision, stale: false, stale_reason: null, related_failures: [] };
          applied.push(o);
          criteria.push({ ...head, ...confirmedRow(answer, o, noFailuresSentence(fact)) });
        }
      } else {
        const o = applyLevel(decision, base);
        applied.push(o);
        criteria.push({ ...head, ...levelRow(answer, o) });
      }
    }
  }
  const rows = withHumanEvidence(input, criteria);
  return {
    criteria: rows,
    overrides: applied,
    refused,
    summary: summarise(rows, applied),
    violations: folded.violations,
  };
}

/**
 * The evidence's rows as a reader gets them: developer links left out where asked (before a person's results,
 * whose remarks quote the evidence's), then the assessment's verdicts laid over them.
 */
function withHumanEvidence(
  input: { developerLinks?: boolean; human?: HumanEvidence },
  criteria: ReportCriterion[],
): ReportCriterion[] {
  const rows =
    input.developerLinks === false
      ? criteria.map((c) =>
          c.source === 'evidence' ? { ...c, remarks: withoutDeveloperLinks(c.remarks) } : c,
        )
      : criteria;
  return input.human ? applyAssessment(rows, verdictsOf(input.human)) : rows;
}

/** Why a confirmation of the automated evidence cannot stand, or null when it can. */
function confirmRefusal(base: BaseAnswer): string | null {
  if (base.related.length > 0) {
    return `W3C relates failures to this criterion (${base.related.map((r) => r.rule).join(', ')}): answer it with a level, knowingly`;
  }
  if (base.basis !== 'rules-passed') {
    return `the automated evidence is "${base.basis}", not "rules-passed": only evidence of rules that ran everywhere and found nothing can be confirmed; answer with a level instead`;
  }
  return null;
}

function applyLevel(decision: OverrideRecord, base: BaseAnswer): AppliedOverride {
  // Only answers the evidence decides can be contradicted by it: 4.1.1 and the chapter rows are
  // decided by the VPAT rules, whatever a scan (an older axe-core's duplicate-id, say) finds.
  const reason = base.source === 'evidence' ? staleReason(decision, base.evidence) : null;
  return {
    ...decision,
    kind: decision.kind ?? 'level',
    stale: reason !== null,
    stale_reason: reason,
    related_failures: base.related,
  };
}

function levelRow(answer: BaseAnswer, o: AppliedOverride): BaseAnswer {
  const notes = [
    o.remarks,
    o.stale_reason ? `[Stale override: ${o.stale_reason}]` : null,
    o.related_failures.length > 0 ? overriddenRelatedSentence(o.related_failures) : null,
  ];
  return {
    ...answer,
    conformance: o.conformance,
    remarks: notes.filter((n): n is string => n !== null).join(' '),
    source: 'override',
    basis: 'override',
    // A stale override goes back to a person; a named person's fresh answer is the review.
    needs_review: o.stale || o.conformance === 'not-evaluated',
    override: o,
  };
}

function confirmedRow(answer: BaseAnswer, o: AppliedOverride, evidence: string): BaseAnswer {
  return {
    ...answer,
    conformance: 'supports',
    remarks: `${o.remarks} (Confirmed by ${o.author} on ${o.created_at.slice(0, 10)}. ${evidence}.)`,
    source: 'override',
    basis: 'confirmed',
    needs_review: false,
    override: o,
  };
}

export function summarise(criteria: ReportCriterion[], applied: AppliedOverride[]): ReportSummary {
  const byConformance = Object.fromEntries(CONFORMANCE_LEVELS.map((c) => [c, 0])) as Record<
    Conformance,
    number
  >;
  for (const c of criteria) byConformance[c.conformance]++;
  return {
    by_conformance: byConformance,
    needs_review: criteria.filter((c) => c.needs_review).length,
    undecided: criteria.filter(isUndecided).length,
    stale_overrides: applied.filter((o) => o.stale).length,
  };
}

function baseAnswer(
  row: CatalogRow,
  tallies: Map<string, CriterionTallies>,
  related: RelatedFailure[],
  ctx: FactContext,
): BaseAnswer {
  if (row.wcag) {
    const fact = decideFromEvidence(row.id, tallies.get(row.id), ctx);
    const evidence = evidenceOf(fact, ctx.pagesTotal, ctx.waiversKnown);
    if (row.defaultAnswer) {
      // 4.1.1: the VPAT instructions decide; the evidence is still recorded for the reviewer.
      return {
        conformance: row.defaultAnswer.conformance,
        remarks: row.defaultAnswer.remarks,
        source: 'default',
        basis: 'vpat-instructions',
        needs_review: false,
        evidence,
        related: [],
      };
    }
    const answer = answerOf(fact);
    // A failure of this criterion decides it already; otherwise related failures are a reason to look.
    const flagged = answer.basis !== 'violations' && related.length > 0;
    const remarks = remarksFor(fact);
    return {
      conformance: answer.conformance,
      remarks: flagged ? `${relatedSentence(row.id, related)} ${remarks}` : remarks,
      source: 'evidence',
      basis: answer.basis,
      needs_review: answer.needsReview || flagged,
      evidence,
      related,
      fact,
    };
  }
  const answer = row.defaultAnswer ?? {
    conformance: 'not-evaluated' as const,
    remarks: 'Not evaluated: needs human review.',
  };
  return {
    conformance: answer.conformance,
    remarks: answer.remarks,
    source: 'default',
    basis: 'chapter-default',
    needs_review: answer.conformance === 'not-evaluated',
    evidence: evidenceOf({ kind: 'no-pages' }, ctx.pagesTotal, ctx.waiversKnown),
    related: [],
  };
}
