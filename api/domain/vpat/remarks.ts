import { publicPath } from '../../../core/url-normalisation.js';
import type { RelatedFailure } from '../catalog/act-relations.js';
import type { EvidenceFact, RuleRun } from './facts.js';
import { plural } from '../../../core/text/wording.js';

/** The English sentences of a report row, written from the facts (facts.ts). Pure. */

/** The first `max` items as words (each through `show`, which runs on those only), then "n more". */
export function listWords(
  items: readonly string[],
  max = 5,
  show: (item: string) => string = (x) => x,
): string {
  const shown = items.slice(0, max).map(show);
  const rest = items.length - shown.length;
  const words = rest > 0 ? [...shown, `${rest} more`] : shown;
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

const rulesWord = (n: number) => (n === 1 ? 'rule' : 'rules');
const perRule = (runs: readonly RuleRun[], total: number) =>
  runs.map((r) => `${r.rule} on ${r.pages === total ? `all ${total}` : `${r.pages} of ${total}`}`).join(', ');

export function remarksFor(fact: EvidenceFact): string {
  switch (fact.kind) {
    case 'violations':
      return violationRemarks(fact);
    case 'incomplete':
      return (
        `Not evaluated: needs human review. axe-core could not decide ${plural(fact.results, 'result')} on ${fact.pagesWith} of ${plural(fact.pagesTotal, 'page')} ` +
        `(${rulesWord(fact.rules.length)} ${listWords(fact.rules)}; pages: ${listWords(fact.pageUrls.map(publicPath), 3)}). ` +
        'A person has to check these and record the result in a review.'
      );
    case 'no-pages':
      return 'Not evaluated: the scan has no pages, so there is no evidence either way. Needs human review.';
    case 'no-coverage':
      return 'Not evaluated: no automated axe-core rule tests this criterion, so it needs human review (record the result in a review).';
    case 'rules-not-run':
      return (
        `Not evaluated: the axe-core ${fact.covering.length === 1 ? 'rule that tests' : 'rules that test'} this criterion (${listWords(fact.covering)}) ` +
        `${fact.rulesRunKnown ? 'did not run in this scan' : 'are not known to have run in this scan (it did not list the rules it ran)'}. Needs human review.`
      );
    case 'rule-results-elsewhere':
      return elsewhereRemarks(fact);
    case 'partially-tested':
      return (
        `Not evaluated: the axe-core ${rulesWord(fact.ran.length)} that test this criterion ran on only ${fact.tested} of ${plural(fact.pagesTotal, 'page')} ` +
        `(${perRule(fact.ran, fact.pagesTotal)}) and found no violations there; ${plural(fact.pagesTotal - fact.tested, 'page was', 'pages were')} not tested for it ` +
        `(${listWords(fact.untestedUrls.map(publicPath), 3)}${fact.rulesRunKnown ? '' : '; some pages did not list the rules that ran'}). Needs human review.`
      );
    case 'rules-passed':
      return rulesPassedRemarks(fact);
  }
}

function violationRemarks(fact: Extract<EvidenceFact, { kind: 'violations' }>): string {
  const majority = fact.pagesAffected * 2 > fact.pagesTotal;
  const sentences = [
    `${plural(fact.issues, 'issue')} on ${fact.pagesAffected} of ${plural(fact.pagesTotal, 'page')} (${majority ? 'more than half' : 'half or fewer'} of the pages scanned) ` +
      `failed axe-core ${rulesWord(fact.rules.length)} ${listWords(fact.rules)}.`,
    `Affected pages: ${listWords(fact.pageUrls, 3, publicPath)}.`,
  ];
  if (fact.waived) {
    sentences.push(
      `${plural(fact.waived, 'issue')} of these ${fact.waived === 1 ? 'is' : 'are'} waived and still counted: a waiver is not conformance.`,
    );
  }
  if (fact.incomplete > 0) {
    sentences.push(
      `${plural(fact.incomplete, 'more result')} need${fact.incomplete === 1 ? 's' : ''} manual review.`,
    );
  }
  if (fact.helpUrls.length > 0) sentences.push(`How to fix: ${listWords(fact.helpUrls, 3)}.`);
  return sentences.join(' ');
}

function elsewhereRemarks(fact: Extract<EvidenceFact, { kind: 'rule-results-elsewhere' }>): string {
  const found = [
    fact.violations > 0 ? plural(fact.violations, 'violation') : null,
    fact.undecided > 0 ? `${plural(fact.undecided, 'result')} to review` : null,
  ].filter((x): x is string => x !== null);
  return (
    `Not evaluated: needs human review. axe-core ${rulesWord(fact.rules.length)} ${listWords(fact.rules)} ` +
    `${fact.rules.length === 1 ? 'tests' : 'test'} this criterion and reported ${found.join(' and ')} in this scan, ` +
    `which the scan attributes only to ${fact.criteria.length > 0 ? listWords(fact.criteria) : 'other criteria'}. ` +
    'A person has to decide whether they fail this criterion too (record the result in a review).'
  );
}

/** The evidence spelled out for the person who may confirm it. */
export function noFailuresSentence(fact: Extract<EvidenceFact, { kind: 'rules-passed' }>): string {
  const ran = fact.ran.map((r) => r.rule);
  const everywhere = fact.ran.every((r) => r.pages === fact.pagesTotal);
  return everywhere
    ? `No automated failures: ${rulesWord(ran.length)} ${listWords(ran)} ran on ${fact.pagesTotal} of ${plural(fact.pagesTotal, 'page')} and found nothing`
    : `No automated failures: every one of the ${plural(fact.pagesTotal, 'page')} was tested by at least one of the ${rulesWord(ran.length)} ${listWords(ran)} (${perRule(fact.ran, fact.pagesTotal)}), and they found nothing`;
}

function rulesPassedRemarks(fact: Extract<EvidenceFact, { kind: 'rules-passed' }>): string {
  return (
    `Not evaluated: ${noFailuresSentence(fact)} (a rule with nothing to test on a page counts too). ` +
    (fact.notRun.length > 0
      ? `${fact.notRun.length === 1 ? 'A rule that also tests it' : 'Rules that also test it'} did not run: ${listWords(fact.notRun)}. `
      : '') +
    'Automated rules detect only some failures of this criterion: a person has to check it and confirm the evidence (or answer otherwise) before the report can say Supports.' +
    (fact.suspect
      ? ' Caution: the scan itself was flagged (see the report’s warnings), so these may not be the pages the report is about.'
      : '')
  );
}

/** "Needs review: `label` failed on 3 pages; W3C relates it to 1.3.1 …" */
export function relatedSentence(criterion: string, related: readonly RelatedFailure[]): string {
  const parts = related.map(
    (r) =>
      `${r.rule} failed ${plural(r.issues, 'time')} on ${plural(r.pages_affected, 'page')} (W3C ACT rule ${r.act_rule} “${r.act_name}” relates it to ${criterion}${r.role === 'secondary' ? ' as a secondary criterion' : ''})`,
  );
  return `Needs review: ${listWords(parts, 3)}.`;
}

/** Appended to a person's answer of a row with related failures, so the answer says what it overrode. */
export function overriddenRelatedSentence(related: readonly RelatedFailure[]): string {
  return `[Answered despite related failures: ${listWords(
    related.map((r) => `${r.rule} on ${plural(r.pages_affected, 'page')} (ACT ${r.act_rule})`),
    3,
  )}.]`;
}

export function staleSentence(
  label: string,
  evidence: { issues: number; pages_affected: number; pages_total: number; rules: string[] },
): string {
  return (
    `This scan found ${plural(evidence.issues, 'violation')} on ${evidence.pages_affected} of ${plural(evidence.pages_total, 'page')} ` +
    `(${listWords(evidence.rules)}), which contradicts the override's “${label}”. Review the override.`
  );
}

/**
 * Remarks for a customer: the developers' "How to fix" links (always the last sentence of an evidence
 * remark) left out. A report keeps them only when its request asked (`developer_links`).
 */
export function withoutDeveloperLinks(remarks: string): string {
  return remarks.replace(/\s*How to fix: \S[\s\S]*$/, '');
}
