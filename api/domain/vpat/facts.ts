import { rulesTesting, type RuleCoverage } from './rule-coverage.js';
import type { Conformance } from './editions.js';
import type { CriterionTallies, PageCounter, RuleResults, Tally } from './evidence-tally.js';
import type { AnswerBasis, CriterionEvidence } from './report.js';
import { compareCriterionIds } from '../catalog/wcag.js';

/**
 * What the scan's evidence says about one WCAG criterion, as facts (no English: remarks.ts writes the
 * sentences). Automated evidence never grants `supports`: the best it shows is that the covering rules ran
 * everywhere and found nothing, which a person then confirms or not. Pure.
 */

/** A covering rule and on how many of the scanned pages it ran. */
export interface RuleRun {
  rule: string;
  pages: number;
}

export type EvidenceFact =
  | {
      kind: 'violations';
      rules: string[];
      issues: number;
      pagesAffected: number;
      pagesTotal: number;
      /** Null when waivers are not known. */
      waived: number | null;
      incomplete: number;
      pageUrls: string[];
      helpUrls: string[];
    }
  | {
      kind: 'incomplete';
      rules: string[];
      results: number;
      pagesWith: number;
      pagesTotal: number;
      pageUrls: string[];
      helpUrls: string[];
    }
  | { kind: 'no-pages' }
  | { kind: 'no-coverage' }
  | { kind: 'rules-not-run'; covering: string[]; rulesRunKnown: boolean }
  | {
      /** A covering rule reported results the scan attributes only to other criteria. */
      kind: 'rule-results-elsewhere';
      rules: string[];
      violations: number;
      undecided: number;
      criteria: string[];
      helpUrls: string[];
    }
  | {
      /** The covering rules ran clean, but not on every page. */
      kind: 'partially-tested';
      ran: RuleRun[];
      tested: number;
      pagesTotal: number;
      untestedUrls: string[];
      rulesRunKnown: boolean;
      helpUrls: string[];
    }
  | {
      /** The covering rules ran on every page and found nothing: waiting for a person. */
      kind: 'rules-passed';
      ran: RuleRun[];
      pagesTotal: number;
      notRun: string[];
      suspect: boolean;
      helpUrls: string[];
    };

export interface FactContext {
  coverage: RuleCoverage;
  /** Different addresses scanned: a URL at two viewports is one page. */
  pagesTotal: number;
  /** How many addresses some of the scan's pages (by index) are. */
  countPages: PageCounter;
  /** Each page's address by its index. */
  pageAddress: ReadonlyMap<number, string>;
  rulesRan: ReadonlySet<string>;
  rulesRunKnown: boolean;
  /** The pages each rule ran on (absent: every rule in `rulesRan` ran on every page). */
  ranOn?: ReadonlyMap<string, ReadonlySet<number>>;
  pageUrl: Map<number, string>;
  waiversKnown: boolean;
  suspect?: boolean;
  /** Results per rule in the whole scan (absent: no rule reported anything). */
  ruleResults?: ReadonlyMap<string, RuleResults>;
}

const cleanHelp = (u: string) => u.replace(/\?application=axeAPI$/, '');

function helpUrlsOf(tally: Tally, coverage: RuleCoverage): string[] {
  return [...tally.rules.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([rule, url]) => url ?? coverage.helpUrls.get(rule) ?? null)
    .filter((u): u is string => Boolean(u))
    .map(cleanHelp);
}

function ruleHelp(rules: readonly string[], coverage: RuleCoverage): string[] {
  return rules
    .map((r) => coverage.helpUrls.get(r))
    .filter((u): u is string => Boolean(u))
    .map(cleanHelp);
}

/** The pages' URLs in scan order, each once (a URL scanned at two viewports is listed once). */
function pageUrls(pages: Iterable<number>, pageUrl: Map<number, string>): string[] {
  const urls = [...pages]
    .sort((a, b) => a - b)
    .map((i) => pageUrl.get(i))
    .filter((u): u is string => Boolean(u));
  return [...new Set(urls)];
}

/** The facts the evidence alone establishes for a WCAG criterion (before any person's decision). */
export function decideFromEvidence(
  criterion: string,
  tallies: CriterionTallies | undefined,
  ctx: FactContext,
): EvidenceFact {
  const { pagesTotal } = ctx;
  const violations = tallies?.violations;
  const incomplete = tallies?.incomplete;
  if (violations && violations.issues > 0) {
    return {
      kind: 'violations',
      rules: [...violations.rules.keys()].sort(),
      issues: violations.issues,
      pagesAffected: ctx.countPages(violations.pages),
      pagesTotal,
      waived: ctx.waiversKnown ? violations.waived : null,
      incomplete: incomplete?.issues ?? 0,
      pageUrls: pageUrls(violations.pages, ctx.pageUrl),
      helpUrls: helpUrlsOf(violations, ctx.coverage),
    };
  }
  if (incomplete && incomplete.issues > 0) {
    return {
      kind: 'incomplete',
      rules: [...incomplete.rules.keys()].sort(),
      results: incomplete.issues,
      pagesWith: ctx.countPages(incomplete.pages),
      pagesTotal,
      pageUrls: pageUrls(incomplete.pages, ctx.pageUrl),
      helpUrls: helpUrlsOf(incomplete, ctx.coverage),
    };
  }
  if (pagesTotal === 0) return { kind: 'no-pages' };
  const covering = [...rulesTesting(ctx.coverage, criterion)];
  if (covering.length === 0) return { kind: 'no-coverage' };
  const ran = covering.filter((r) => ctx.rulesRan.has(r));
  if (ran.length === 0) return { kind: 'rules-not-run', covering, rulesRunKnown: ctx.rulesRunKnown };
  const elsewhere = ran.filter((r) => ctx.ruleResults?.has(r));
  if (elsewhere.length > 0) return resultsElsewhere(criterion, elsewhere, ctx);
  return cleanRun(covering, ran, ctx);
}

// A covering rule that reported results the scan attributes to other criteria only (a native scan naming
// fewer criteria than axe-core maps the rule to, or an older axe-core) did not "find nothing" here.
function resultsElsewhere(criterion: string, rules: string[], ctx: FactContext): EvidenceFact {
  let violations = 0;
  let undecided = 0;
  const criteria = new Set<string>();
  for (const r of rules) {
    const res = ctx.ruleResults!.get(r)!;
    violations += res.violations;
    undecided += res.incomplete;
    for (const c of res.criteria) if (c !== criterion) criteria.add(c);
  }
  return {
    kind: 'rule-results-elsewhere',
    rules,
    violations,
    undecided,
    criteria: [...criteria].sort(compareCriterionIds),
    helpUrls: ruleHelp(rules, ctx.coverage),
  };
}

// Nothing found needs every scanned page tested by some covering rule: a rule that ran on one page says
// nothing about a page where it did not run (a page submitted as native issues, say).
function cleanRun(covering: string[], ran: string[], ctx: FactContext): EvidenceFact {
  const { pagesTotal } = ctx;
  const runs = ran.map((rule) => {
    const on = ctx.ranOn?.get(rule);
    return { rule, pages: on ? ctx.countPages(on) : pagesTotal };
  });
  const helpUrls = ruleHelp(ran, ctx.coverage);
  if (runs.some((r) => r.pages < pagesTotal) && ctx.ranOn) {
    // An address is tested when a covering rule ran on it at any of its viewports.
    const covered = new Set<string | undefined>();
    for (const r of ran) for (const p of ctx.ranOn.get(r) ?? []) covered.add(ctx.pageAddress.get(p));
    const untested = [...ctx.pageUrl.keys()].filter((p) => !covered.has(ctx.pageAddress.get(p)));
    if (untested.length > 0) {
      return {
        kind: 'partially-tested',
        ran: runs,
        tested: pagesTotal - ctx.countPages(untested),
        pagesTotal,
        untestedUrls: pageUrls(untested, ctx.pageUrl),
        rulesRunKnown: ctx.rulesRunKnown,
        helpUrls,
      };
    }
  }
  return {
    kind: 'rules-passed',
    ran: runs,
    pagesTotal,
    notRun: covering.filter((r) => !ctx.rulesRan.has(r)),
    suspect: ctx.suspect ?? false,
    helpUrls,
  };
}

/** The answer a fact gives: a level only when the evidence shows failures; otherwise a person decides. */
export function answerOf(fact: EvidenceFact): {
  conformance: Conformance;
  basis: AnswerBasis;
  needsReview: boolean;
} {
  if (fact.kind === 'violations') {
    const majority = fact.pagesAffected * 2 > fact.pagesTotal;
    return {
      conformance: majority ? 'does-not-support' : 'partially-supports',
      basis: 'violations',
      needsReview: false,
    };
  }
  const basis: AnswerBasis = fact.kind === 'partially-tested' ? 'rules-not-run' : fact.kind;
  return { conformance: 'not-evaluated', basis, needsReview: true };
}

/** The evidence block of a row, from its facts. */
export function evidenceOf(fact: EvidenceFact, pagesTotal: number, waiversKnown: boolean): CriterionEvidence {
  const evidence: CriterionEvidence = {
    rules: [],
    issues: 0,
    pages_affected: 0,
    pages_total: pagesTotal,
    incomplete: 0,
    waived: waiversKnown ? 0 : null,
    help_urls: [],
  };
  switch (fact.kind) {
    case 'violations':
      return {
        ...evidence,
        rules: fact.rules,
        issues: fact.issues,
        pages_affected: fact.pagesAffected,
        incomplete: fact.incomplete,
        waived: fact.waived,
        help_urls: fact.helpUrls,
      };
    case 'incomplete':
      return { ...evidence, rules: fact.rules, incomplete: fact.results, help_urls: fact.helpUrls };
    case 'rule-results-elsewhere':
      return { ...evidence, rules: fact.rules, help_urls: fact.helpUrls };
    case 'partially-tested':
    case 'rules-passed':
      return { ...evidence, rules: fact.ran.map((r) => r.rule), help_urls: fact.helpUrls };
    default:
      return evidence;
  }
}
