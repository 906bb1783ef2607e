import { relatedFrom, tallyRelated, type RelatedTally } from '../catalog/act-relations.js';
import type { RuleCoverage } from './rule-coverage.js';
import {
  addressesByIndex,
  pageCounter,
  resultsByRule,
  rulesReportedIn,
  rulesRunKnown,
  rulesRunOnPages,
  tallyByCriterion,
  tallyViolations,
  violationsFrom,
  type CriterionTallies,
  type EvidencePage,
  type EvidenceGroup,
  type RuleResults,
  type RulesRunByPage,
  type ScanEvidence,
  type ViolationTally,
} from './evidence-tally.js';

/**
 * Every tally a report is derived from, built a batch of pages or groups at a time: the caller may hand
 * other work a turn between batches, and the derivation itself then only walks the catalogue. Pure.
 */
export interface EvidenceFold {
  byPage: RulesRunByPage;
  ruleResults: Map<string, RuleResults>;
  tallies: Map<string, CriterionTallies>;
  related: RelatedTally;
  violations: ViolationTally;
}

export function startFold(): EvidenceFold {
  return {
    byPage: { pagesByRule: new Map(), known: true, unknownPages: 0 },
    ruleResults: new Map(),
    tallies: new Map(),
    related: new Map(),
    violations: new Map(),
  };
}

export function foldPages(
  fold: EvidenceFold,
  pages: ReadonlyArray<EvidencePage>,
  rulesRun: readonly string[] | null,
): void {
  rulesRunOnPages(pages, rulesRun, fold.byPage);
}

export function foldGroups(
  fold: EvidenceFold,
  groups: readonly EvidenceGroup[],
  coverage: RuleCoverage,
): void {
  rulesReportedIn(groups, fold.byPage.pagesByRule);
  resultsByRule(groups, coverage, fold.ruleResults);
  tallyByCriterion(groups, coverage, fold.tallies);
  tallyRelated(groups, coverage, fold.related);
  tallyViolations(groups, fold.violations);
}

/**
 * The scan's stored help URL of each rule in `help`, in every tally that names the rule: groups folded a
 * range at a time carry none, since a rule's URL is known only once every range is read.
 */
export function foldHelpUrls(fold: EvidenceFold, help: ReadonlyMap<string, string>): void {
  if (help.size === 0) return;
  for (const t of fold.tallies.values()) {
    for (const tally of [t.violations, t.incomplete]) {
      for (const rule of tally.rules.keys()) {
        const url = help.get(rule);
        if (url) tally.rules.set(rule, url);
      }
    }
  }
}

/** The whole evidence folded at once (small scans, and the derivation when handed no fold). */
export function foldEvidence(evidence: ScanEvidence, coverage: RuleCoverage): EvidenceFold {
  const fold = startFold();
  foldPages(fold, evidence.pages, evidence.rulesRun);
  foldGroups(fold, evidence.groups, coverage);
  return fold;
}

/** What the derivation reads from a finished fold. */
export function foldResults(fold: EvidenceFold, evidence: Pick<ScanEvidence, 'pages' | 'rulesRun'>) {
  // Pages as a report counts them: a URL scanned at two viewports is one page.
  const addresses = addressesByIndex(evidence.pages);
  const countPages = pageCounter(addresses);
  return {
    addresses,
    countPages,
    byPage: {
      ...fold.byPage,
      known: rulesRunKnown(fold.byPage, evidence.pages.length, evidence.rulesRun),
    },
    ruleResults: fold.ruleResults,
    tallies: fold.tallies,
    related: relatedFrom(fold.related, countPages),
    violations: violationsFrom(fold.violations, countPages),
  };
}
