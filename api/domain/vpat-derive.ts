import { rulesTesting, type RuleCoverage } from './rule-coverage.js';
import {
  CONFORMANCE_LEVELS,
  type CatalogRow,
  type Conformance,
  type EditionCatalog,
} from './vpat-editions.js';
import { compareCriterionIds } from './wcag-catalog.js';
import type {
  AppliedOverride,
  CriterionEvidence,
  OverrideRecord,
  ReportCriterion,
  ReportStatus,
  ReportSummary,
} from './vpat-report.js';

/**
 * Derives every row of a VPAT / ACR from one scan's evidence (docs/vpat.md):
 * - violations (waived ones too) on more than half of the scanned pages → does-not-support; on half or
 *   fewer → partially-supports;
 * - rules that test the criterion ran and found nothing → supports, remarked "automated evidence only";
 * - only incomplete results, covering rules that did not run, or no rule at all → not-evaluated;
 * - an override always wins, and is `stale` when the evidence contradicts it.
 * Pure: the caller reads the scan (aggregated) and the rules from axe-core.
 */

/** Issues of one (rule, kind, wcag, page) group, as the aggregate query returns them. */
export interface EvidenceGroup {
  rule: string;
  kind: 'violation' | 'incomplete' | string;
  /** Comma-separated criterion ids from the issue ("1.4.3,1.1.1"), or null/empty. */
  wcag: string | null;
  page: number;
  count: number;
  helpUrl: string | null;
  /** How many of `count` an active waiver covers (undefined when waivers are not known). */
  waived?: number;
}

export interface EvidencePage {
  index: number;
  url: string;
  /**
   * Rule ids that ran on this page; null when unknown (then a rule counts as run there only if it reported
   * a result there). Absent: the scan-wide `rulesRun` stands for every page.
   */
  rulesRun?: readonly string[] | null;
}

export interface ScanEvidence {
  pages: ReadonlyArray<EvidencePage>;
  /**
   * Rule ids the scan says ran, for pages that carry no list of their own; null when unknown (then a rule
   * counts as run only where it reported a result).
   */
  rulesRun: readonly string[] | null;
  groups: readonly EvidenceGroup[];
  /** True when `waived` counts are filled in. */
  waiversKnown?: boolean;
  /** True when the scan itself was flagged as possibly not showing the real pages (login-page trap, errors). */
  suspect?: boolean;
}

export interface Derivation {
  criteria: ReportCriterion[];
  overrides: AppliedOverride[];
  status: ReportStatus;
  summary: ReportSummary;
}

interface Tally {
  issues: number;
  waived: number;
  pages: Set<number>;
  rules: Map<string, string | null>;
}

function newTally(): Tally {
  return { issues: 0, waived: 0, pages: new Set(), rules: new Map() };
}

interface CriterionTallies {
  violations: Tally;
  incomplete: Tally;
}

/**
 * Groups the scan's issues by criterion. An issue names its criteria in `wcag` (parsed from axe's `wcagNNN`
 * tags at import); an issue without any falls back to the criteria its rule tests according to axe-core.
 */
export function tallyByCriterion(
  groups: readonly EvidenceGroup[],
  coverage: RuleCoverage,
): Map<string, CriterionTallies> {
  const out = new Map<string, CriterionTallies>();
  const parsed = new Map<string, string[]>();
  for (const g of groups) {
    const key = g.wcag ?? '';
    let criteria = parsed.get(key);
    if (!criteria) {
      criteria = key
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      parsed.set(key, criteria);
    }
    const list = criteria.length > 0 ? criteria : (coverage.byRule.get(g.rule) ?? []);
    for (const c of list) {
      let t = out.get(c);
      if (!t) {
        t = { violations: newTally(), incomplete: newTally() };
        out.set(c, t);
      }
      const tally = g.kind === 'incomplete' ? t.incomplete : t.violations;
      tally.issues += g.count;
      tally.waived += g.waived ?? 0;
      tally.pages.add(g.page);
      if (!tally.rules.has(g.rule) || (!tally.rules.get(g.rule) && g.helpUrl))
        tally.rules.set(g.rule, g.helpUrl);
    }
  }
  return out;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function listWords(items: readonly string[], max = 5): string {
  const shown = items.slice(0, max);
  const rest = items.length - shown.length;
  const words = rest > 0 ? [...shown, `${rest} more`] : shown;
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function helpUrlsOf(tally: Tally, coverage: RuleCoverage): string[] {
  return [...tally.rules.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([rule, url]) => url ?? coverage.helpUrls.get(rule) ?? null)
    .filter((u): u is string => Boolean(u))
    .map((u) => u.replace(/\?application=axeAPI$/, ''));
}

function pageUrls(tally: Tally, pageUrl: Map<number, string>): string[] {
  return [...tally.pages]
    .sort((a, b) => a - b)
    .map((i) => pageUrl.get(i))
    .filter((u): u is string => Boolean(u));
}

function emptyEvidence(pagesTotal: number, waiversKnown: boolean): CriterionEvidence {
  return {
    rules: [],
    issues: 0,
    pages_affected: 0,
    pages_total: pagesTotal,
    incomplete: 0,
    waived: waiversKnown ? 0 : null,
    help_urls: [],
  };
}

interface EvidenceAnswer {
  conformance: Conformance;
  remarks: string;
  basis: ReportCriterion['basis'];
  needsReview: boolean;
  evidence: CriterionEvidence;
}

/** What each rule reported in the scan, and which criteria the scan attributed those results to. */
interface RuleResults {
  violations: number;
  incomplete: number;
  criteria: Set<string>;
}

export function resultsByRule(
  groups: readonly EvidenceGroup[],
  coverage: RuleCoverage,
): Map<string, RuleResults> {
  const out = new Map<string, RuleResults>();
  for (const g of groups) {
    let r = out.get(g.rule);
    if (!r) {
      r = { violations: 0, incomplete: 0, criteria: new Set() };
      out.set(g.rule, r);
    }
    if (g.kind === 'incomplete') r.incomplete += g.count;
    else r.violations += g.count;
    const named = (g.wcag ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    for (const c of named.length > 0 ? named : (coverage.byRule.get(g.rule) ?? [])) r.criteria.add(c);
  }
  return out;
}

/** Where each rule ran: the pages whose list names it, and the pages where it reported a result. */
export interface RulesRunByPage {
  /** Rule id → indexes of the pages it ran on. */
  pagesByRule: Map<string, Set<number>>;
  /** True when every page says which rules ran on it. */
  known: boolean;
  /** How many pages said nothing about which rules ran. */
  unknownPages: number;
}

export function rulesRunByPage(
  evidence: Pick<ScanEvidence, 'pages' | 'rulesRun' | 'groups'>,
): RulesRunByPage {
  const pagesByRule = new Map<string, Set<number>>();
  const add = (rule: string, page: number) => {
    let set = pagesByRule.get(rule);
    if (!set) pagesByRule.set(rule, (set = new Set()));
    set.add(page);
  };
  let unknownPages = 0;
  for (const p of evidence.pages) {
    const list = p.rulesRun === undefined ? evidence.rulesRun : p.rulesRun;
    if (list === null) {
      unknownPages++;
      continue;
    }
    for (const r of list) add(r, p.index);
  }
  // A rule that reported a result on a page ran there, whatever the page's list says.
  for (const g of evidence.groups) add(g.rule, g.page);
  const known = evidence.pages.length > 0 ? unknownPages === 0 : evidence.rulesRun !== null;
  return { pagesByRule, known, unknownPages };
}

/** The answer the evidence alone gives a WCAG criterion (before overrides). */
export function answerFromEvidence(
  criterion: string,
  tallies: CriterionTallies | undefined,
  ctx: {
    coverage: RuleCoverage;
    pagesTotal: number;
    rulesRan: ReadonlySet<string>;
    rulesRunKnown: boolean;
    /** The pages each rule ran on (absent: every rule in `rulesRan` ran on every page). */
    ranOn?: ReadonlyMap<string, ReadonlySet<number>>;
    pageUrl: Map<number, string>;
    waiversKnown: boolean;
    suspect?: boolean;
    /** Results per rule in the whole scan (absent: no rule reported anything). */
    ruleResults?: ReadonlyMap<string, RuleResults>;
  },
): EvidenceAnswer {
  const { pagesTotal } = ctx;
  const evidence = emptyEvidence(pagesTotal, ctx.waiversKnown);
  const violations = tallies?.violations;
  const incomplete = tallies?.incomplete;
  if (incomplete && incomplete.issues > 0) evidence.incomplete = incomplete.issues;

  if (violations && violations.issues > 0) {
    const rules = [...violations.rules.keys()].sort();
    const affected = violations.pages.size;
    evidence.rules = rules;
    evidence.issues = violations.issues;
    evidence.pages_affected = affected;
    evidence.waived = ctx.waiversKnown ? violations.waived : null;
    evidence.help_urls = helpUrlsOf(violations, ctx.coverage);
    const majority = affected * 2 > pagesTotal;
    const sentences = [
      `${plural(violations.issues, 'issue')} on ${affected} of ${plural(pagesTotal, 'page')} (${majority ? 'more than half' : 'half or fewer'} of the pages scanned) ` +
        `failed axe-core ${rules.length === 1 ? 'rule' : 'rules'} ${listWords(rules)}.`,
      `Affected pages: ${listWords(pageUrls(violations, ctx.pageUrl), 3)}.`,
    ];
    if (ctx.waiversKnown && violations.waived > 0) {
      sentences.push(
        `${plural(violations.waived, 'issue')} of these ${violations.waived === 1 ? 'is' : 'are'} waived and still counted: a waiver is not conformance.`,
      );
    }
    if (evidence.incomplete > 0) {
      sentences.push(
        `${plural(evidence.incomplete, 'more result')} need${evidence.incomplete === 1 ? 's' : ''} manual review.`,
      );
    }
    if (evidence.help_urls.length > 0) sentences.push(`How to fix: ${listWords(evidence.help_urls, 3)}.`);
    return {
      conformance: majority ? 'does-not-support' : 'partially-supports',
      remarks: sentences.join(' '),
      basis: 'violations',
      needsReview: false,
      evidence,
    };
  }

  if (incomplete && incomplete.issues > 0) {
    const rules = [...incomplete.rules.keys()].sort();
    evidence.rules = rules;
    evidence.pages_affected = 0;
    evidence.help_urls = helpUrlsOf(incomplete, ctx.coverage);
    return {
      conformance: 'not-evaluated',
      remarks:
        `Not evaluated: needs human review. axe-core could not decide ${plural(incomplete.issues, 'result')} on ${incomplete.pages.size} of ${plural(pagesTotal, 'page')} ` +
        `(${rules.length === 1 ? 'rule' : 'rules'} ${listWords(rules)}; pages: ${listWords(pageUrls(incomplete, ctx.pageUrl), 3)}). ` +
        'A person has to check these and record the result as an override.',
      basis: 'incomplete',
      needsReview: true,
      evidence,
    };
  }

  if (pagesTotal === 0) {
    return {
      conformance: 'not-evaluated',
      remarks:
        'Not evaluated: the scan has no pages, so there is no evidence either way. Needs human review.',
      basis: 'no-pages',
      needsReview: true,
      evidence,
    };
  }

  const covering = rulesTesting(ctx.coverage, criterion);
  if (covering.length === 0) {
    return {
      conformance: 'not-evaluated',
      remarks:
        'Not evaluated: no automated axe-core rule tests this criterion, so it needs human review (record the result as an override).',
      basis: 'no-coverage',
      needsReview: true,
      evidence,
    };
  }
  const ran = covering.filter((r) => ctx.rulesRan.has(r));
  if (ran.length === 0) {
    return {
      conformance: 'not-evaluated',
      remarks:
        `Not evaluated: the axe-core ${covering.length === 1 ? 'rule that tests' : 'rules that test'} this criterion (${listWords(covering)}) ` +
        `${ctx.rulesRunKnown ? 'did not run in this scan' : 'are not known to have run in this scan (it did not list the rules it ran)'}. Needs human review.`,
      basis: 'rules-not-run',
      needsReview: true,
      evidence,
    };
  }
  const helpOf = (rules: readonly string[]) =>
    rules
      .map((r) => ctx.coverage.helpUrls.get(r))
      .filter((u): u is string => Boolean(u))
      .map((u) => u.replace(/\?application=axeAPI$/, ''));
  // A covering rule that reported results the scan attributes to other criteria only (a native scan naming
  // fewer criteria than axe-core maps the rule to, or an older axe-core) did not "find nothing" here.
  const elsewhere = ran.filter((r) => ctx.ruleResults?.has(r));
  if (elsewhere.length > 0) {
    let violations = 0;
    let undecided = 0;
    const criteria = new Set<string>();
    for (const r of elsewhere) {
      const res = ctx.ruleResults!.get(r)!;
      violations += res.violations;
      undecided += res.incomplete;
      for (const c of res.criteria) if (c !== criterion) criteria.add(c);
    }
    const found = [
      violations > 0 ? plural(violations, 'violation') : null,
      undecided > 0 ? plural(undecided, 'result', 'results') + ' to review' : null,
    ].filter((x): x is string => x !== null);
    evidence.rules = [...elsewhere];
    evidence.help_urls = helpOf(elsewhere);
    return {
      conformance: 'not-evaluated',
      remarks:
        `Not evaluated: needs human review. axe-core ${elsewhere.length === 1 ? 'rule' : 'rules'} ${listWords(elsewhere)} ` +
        `${elsewhere.length === 1 ? 'tests' : 'test'} this criterion and reported ${found.join(' and ')} in this scan, ` +
        `which the scan attributes only to ${criteria.size > 0 ? listWords([...criteria].sort(compareCriterionIds)) : 'other criteria'}. ` +
        'A person has to decide whether they fail this criterion too (record the result as an override).',
      basis: 'rule-results-elsewhere',
      needsReview: true,
      evidence,
    };
  }
  const notRun = covering.filter((r) => !ctx.rulesRan.has(r));
  evidence.rules = [...ran];
  evidence.help_urls = helpOf(ran);
  // Supports needs every scanned page tested by some covering rule: a rule that ran on one page says
  // nothing about a page where it did not run (a page submitted as native issues, say).
  const ranCount = (r: string) => ctx.ranOn?.get(r)?.size ?? pagesTotal;
  const partial = ran.some((r) => ranCount(r) < pagesTotal);
  let tested = pagesTotal;
  let untested: number[] = [];
  if (partial && ctx.ranOn) {
    const covered = new Set<number>();
    for (const r of ran) for (const p of ctx.ranOn.get(r) ?? []) covered.add(p);
    untested = [...ctx.pageUrl.keys()].filter((p) => !covered.has(p)).sort((a, b) => a - b);
    tested = pagesTotal - untested.length;
  }
  const perRule = ran
    .map(
      (r) =>
        `${r} on ${ranCount(r) === pagesTotal ? `all ${pagesTotal}` : `${ranCount(r)} of ${pagesTotal}`}`,
    )
    .join(', ');
  if (tested < pagesTotal) {
    const urls = untested.map((p) => ctx.pageUrl.get(p)).filter((u): u is string => Boolean(u));
    return {
      conformance: 'not-evaluated',
      remarks:
        `Not evaluated: the axe-core ${ran.length === 1 ? 'rule' : 'rules'} that test this criterion ran on only ${tested} of ${plural(pagesTotal, 'page')} ` +
        `(${perRule}) and found no violations there; ${plural(untested.length, 'page was', 'pages were')} not tested for it ` +
        `(${listWords(urls, 3)}${ctx.rulesRunKnown ? '' : '; some pages did not list the rules that ran'}). Needs human review.`,
      basis: 'rules-not-run',
      needsReview: true,
      evidence,
    };
  }
  return {
    conformance: 'supports',
    remarks:
      (partial
        ? `Automated evidence only: every one of the ${plural(pagesTotal, 'page')} was tested by at least one of the axe-core rules ${listWords(ran)} (${perRule}), and they found no violations `
        : `Automated evidence only: axe-core ${ran.length === 1 ? 'rule' : 'rules'} ${listWords(ran)} ran on ${plural(pagesTotal, 'page')} and found no violations `) +
      '(a rule that found nothing to test on a page counts too). ' +
      (notRun.length > 0
        ? `${notRun.length === 1 ? 'A rule that also tests it' : 'Rules that also test it'} did not run: ${listWords(notRun)}. `
        : '') +
      'Automated rules detect only some failures of this criterion; a person should confirm it before the report is signed.' +
      (ctx.suspect
        ? ' Caution: the scan itself was flagged (see the report’s warnings), so these may not be the pages the report is about.'
        : ''),
    basis: 'rules-passed',
    needsReview: true,
    evidence,
  };
}

/**
 * The evidence contradicts an override that claims more than it shows: support (or irrelevance) although
 * violations were found, or partial support although violations are on more than half of the pages (the
 * evidence's does-not-support: "the majority of product functionality does not meet the criterion").
 */
export function staleReason(override: OverrideRecord, evidence: CriterionEvidence): string | null {
  if (evidence.issues === 0) return null;
  const majority = evidence.pages_affected * 2 > evidence.pages_total;
  const labels: Partial<Record<Conformance, string>> = {
    supports: 'Supports',
    'not-applicable': 'Not Applicable',
    ...(majority ? { 'partially-supports': 'Partially Supports' } : {}),
  };
  const label = labels[override.conformance];
  if (!label) return null;
  return (
    `This scan found ${plural(evidence.issues, 'violation')} on ${evidence.pages_affected} of ${plural(evidence.pages_total, 'page')} ` +
    `(${listWords(evidence.rules)}), which contradicts the override's “${label}”. Review the override.`
  );
}

export function deriveReport(input: {
  catalog: EditionCatalog;
  coverage: RuleCoverage;
  evidence: ScanEvidence;
  /** At most one per criterion, already validated against the catalog. */
  overrides: readonly OverrideRecord[];
}): Derivation {
  const { catalog, coverage, evidence } = input;
  const pagesTotal = evidence.pages.length;
  const pageUrl = new Map(evidence.pages.map((p) => [p.index, p.url]));
  const byPage = rulesRunByPage(evidence);
  const rulesRunKnown = byPage.known;
  const rulesRan = new Set(byPage.pagesByRule.keys());
  const ranOn = byPage.pagesByRule;
  const waiversKnown = evidence.waiversKnown ?? false;
  const suspect = evidence.suspect ?? false;
  const tallies = tallyByCriterion(evidence.groups, coverage);
  const overrideByCriterion = new Map(input.overrides.map((o) => [o.criterion, o]));
  const ruleResults = resultsByRule(evidence.groups, coverage);
  const ctx = {
    coverage,
    pagesTotal,
    rulesRan,
    rulesRunKnown,
    ranOn,
    pageUrl,
    waiversKnown,
    suspect,
    ruleResults,
  };

  const criteria: ReportCriterion[] = [];
  const applied: AppliedOverride[] = [];
  for (const chapter of catalog.chapters) {
    for (const row of chapter.rows) {
      const base = baseAnswer(row, tallies, ctx);
      const override = overrideByCriterion.get(row.id);
      if (!override) {
        criteria.push({ id: row.id, title: row.title, level: row.level, chapter: chapter.id, ...base });
        continue;
      }
      // Only answers the evidence decides can be contradicted by it: 4.1.1 and the chapter rows are
      // decided by the VPAT rules, whatever a scan (an older axe-core's duplicate-id, say) finds.
      const reason = base.source === 'evidence' ? staleReason(override, base.evidence) : null;
      const appliedOverride: AppliedOverride = { ...override, stale: reason !== null, stale_reason: reason };
      applied.push(appliedOverride);
      criteria.push({
        id: row.id,
        title: row.title,
        level: row.level,
        chapter: chapter.id,
        conformance: override.conformance,
        remarks: reason ? `${override.remarks} [Stale override: ${reason}]` : override.remarks,
        source: 'override',
        basis: 'override',
        // A stale override goes back to a person; a named person's fresh answer is the review.
        needs_review: reason !== null || override.conformance === 'not-evaluated',
        evidence: base.evidence,
        override: appliedOverride,
      });
    }
  }

  const byConformance = Object.fromEntries(CONFORMANCE_LEVELS.map((c) => [c, 0])) as Record<
    Conformance,
    number
  >;
  for (const c of criteria) byConformance[c.conformance]++;
  // The VPAT allows Not Evaluated only for Level AAA: any other row not evaluated keeps the report a draft.
  const status: ReportStatus = criteria.some((c) => c.conformance === 'not-evaluated' && c.level !== 'AAA')
    ? 'draft'
    : 'final';
  return {
    criteria,
    overrides: applied,
    status,
    summary: {
      by_conformance: byConformance,
      needs_review: criteria.filter((c) => c.needs_review).length,
      stale_overrides: applied.filter((o) => o.stale).length,
    },
  };
}

function baseAnswer(
  row: CatalogRow,
  tallies: Map<string, CriterionTallies>,
  ctx: Parameters<typeof answerFromEvidence>[2],
): Omit<ReportCriterion, 'id' | 'title' | 'level' | 'chapter'> {
  if (row.wcag) {
    const a = answerFromEvidence(row.id, tallies.get(row.id), ctx);
    if (!row.defaultAnswer) {
      return {
        conformance: a.conformance,
        remarks: a.remarks,
        source: 'evidence',
        basis: a.basis,
        needs_review: a.needsReview,
        evidence: a.evidence,
      };
    }
    // 4.1.1: the VPAT instructions decide; the evidence is still recorded for the reviewer.
    return {
      conformance: row.defaultAnswer.conformance,
      remarks: row.defaultAnswer.remarks,
      source: 'default',
      basis: 'vpat-instructions',
      needs_review: false,
      evidence: a.evidence,
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
    evidence: emptyEvidence(ctx.pagesTotal, ctx.waiversKnown),
  };
}
