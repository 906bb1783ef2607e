import { domainErrors, type FieldError } from '../../errors.js';
import { nextTurn } from '../../turns.js';
import { WCAG_CRITERIA } from '../../../../core/catalog/wcag-criteria.data.js';
import { levelIncludes } from '../../catalog/wcag.js';
import type { AssessmentLevel, ImportedResult, SamplePage } from './assessment.js';
import { addressOf, combined, criteriaOf, isWebAddress, outcomeOf, testerOf } from './earl-assertion.js';
import { T, nodeIndex, type ExpandedNode, type NodeIndex } from './json-ld-terms.js';

/**
 * Reads EARL in JSON-LD by meaning, from its expanded form (full IRIs, api/services/assessments/json-ld.ts
 * expands it): a WCAG-EM Report Tool evaluation (the `@graph` export of its 2.x releases, the steps export
 * `defineScope` … `reportFindings`, the earlier one with `evaluationScope` and `auditResult`), or EARL
 * assertions of another tool (whatever their framing: a list, assertions under their subjects or their
 * assertor). Pure (it takes turns between batches of assertions).
 */

export interface ImportedAssessment {
  format: 'wcag-em-report-tool' | 'accessibility-insights' | 'earl';
  title: string;
  level: AssessmentLevel;
  sample: SamplePage[];
  results: ImportedResult[];
  /** What was read but counts for nothing (4.1.1, criteria above the target level). */
  ignored: string[];
}

type Json = Record<string, unknown>;
const CRITERIA = new Map(WCAG_CRITERIA.map((c) => [c.id, c]));
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A file read as JSON-LD: it has a context or a graph (an Accessibility Insights file has neither). */
export function looksLikeJsonLd(doc: unknown): doc is Json {
  return isObject(doc) && (doc['@context'] !== undefined || doc['@graph'] !== undefined);
}

function levelOf(ix: NodeIndex, evaluation: ExpandedNode | undefined): AssessmentLevel | 'AAA' {
  const scope = evaluation ? ix.node(ix.first(evaluation, T.scope)) : undefined;
  const target = scope ? ix.text(ix.first(scope, T.target)) : undefined;
  const m = /(AAA|AA|A)(?:-Conformance)?$/i.exec(target ?? 'AA');
  return (m?.[1].toUpperCase() ?? 'AA') as AssessmentLevel | 'AAA';
}

interface Sample {
  pages: SamplePage[];
  /** A page's address by its node id. */
  byId: Map<string, string>;
}

function samplePages(ix: NodeIndex, evaluation: ExpandedNode | undefined): Sample {
  const sample: Sample = { pages: [], byId: new Map() };
  if (!evaluation) return sample;
  const select = ix.node(ix.first(evaluation, T.select)) ?? evaluation;
  const seen = new Set<string>();
  for (const [terms, source] of [
    [T.structured, 'chosen'],
    [T.random, 'random'],
  ] as const) {
    for (const entry of ix
      .values(select, terms)
      .map((v) => ix.node(v))
      .filter((n) => n !== undefined)) {
      // A page, or (the earlier exports) a list of pages under one property.
      const pages = addressOf(ix, entry) ? [entry] : ix.nestedNodes(entry);
      for (const page of pages) {
        const url = addressOf(ix, page);
        if (!url) continue;
        const id = ix.idOf(page);
        if (id) sample.byId.set(id, url);
        if (seen.has(url)) continue;
        seen.add(url);
        sample.pages.push({ url, source });
      }
    }
  }
  return sample;
}

interface Walk {
  ix: NodeIndex;
  sample: Sample;
  level: AssessmentLevel;
  evaluator: string;
  results: ImportedResult[];
  /** Results of tests that are part of a criterion (a tool's rules): combined per criterion and page. */
  partial: Map<string, ImportedResult[]>;
  ignored: Set<string>;
  errors: FieldError[];
}

/** The pages an assertion is about (null: the whole sample); a page outside the sample joins it. */
function pagesOf(w: Walk, a: ExpandedNode): Array<string | null> {
  const all = w.ix.values(a, T.subject);
  if (all.length === 0) return [null];
  return all.map((s) => {
    const node = w.ix.node(s);
    const id = (node && w.ix.idOf(node)) ?? w.ix.text(s);
    const known = id ? w.sample.byId.get(id) : undefined;
    if (known) return known;
    const url = node ? addressOf(w.ix, node) : isWebAddress(id) ? id : undefined;
    if (!isWebAddress(url)) return null;
    if (!w.sample.pages.some((p) => p.url === url)) w.sample.pages.push({ url, source: 'chosen' });
    if (id) w.sample.byId.set(id, url);
    return url;
  });
}

/** Reads one assertion; answers the criteria its parts inherit, or undefined when its parts are not read. */
function readAssertion(w: Walk, a: ExpandedNode, place: Place, inherited: string[]) {
  const { ix } = w;
  const { criteria, whole, name } = criteriaOf(ix, a, inherited);
  if (criteria.length === 0) {
    w.errors.push({
      pointer: `${pointerOf(place)}/test`,
      detail: `"${name ?? ''}" names no WCAG 2.x success criterion`,
    });
    return undefined;
  }
  const outcome = outcomeOf(ix, a);
  if (!outcome) {
    w.errors.push({ pointer: `${pointerOf(place)}/result/outcome`, detail: 'is not an EARL outcome' });
    return undefined;
  }
  const result = ix.node(ix.first(a, T.result));
  const notes = ((result && ix.text(ix.first(result, T.description))) ?? '').slice(0, 5000);
  // An untouched criterion (untested, no notes, nobody named) is the tool's default, not a result.
  const untouched = outcome === 'untested' && !notes && ix.first(a, T.assertedBy) === undefined;
  const tester = testerOf(ix, a, w.evaluator);
  let pages: Array<string | null> | undefined;
  for (const criterion of criteria) {
    const data = CRITERIA.get(criterion);
    const counted = data && !data.removedIn && levelIncludes(w.level, data.level);
    if (!counted) w.ignored.add(criterion);
    if (!counted || untouched) continue;
    pages ??= pagesOf(w, a);
    for (const page of pages) {
      const r = { criterion, page, outcome, notes, tester };
      if (whole) w.results.push(r);
      else {
        const key = `${criterion}\u0000${page ?? ''}`;
        w.partial.set(key, [...(w.partial.get(key) ?? []), r]);
      }
    }
  }
  return criteria;
}

/**
 * Where an assertion is in the file: its parent's place and its own step (a part's: its index under
 * `hasPart`), made a pointer only when needed.
 */
interface Place {
  parent?: Place;
  step: string | number;
}

const pointerOf = (p: Place): string => {
  const steps: string[] = [];
  for (let at: Place | undefined = p; at; at = at.parent)
    steps.push(typeof at.step === 'number' ? `hasPart/${at.step}` : at.step);
  return steps.reverse().join('/');
};

/** Assertions read between two turns: a large file never holds the event loop for long. */
const TURN_ASSERTIONS = 1000;

/**
 * The assertions and their `hasPart` parts in document order, depth first with a stack of its own: a
 * chain of parts costs memory, not the call stack. Pointers name places in the Report Tool's terms.
 */
async function readAssertions(w: Walk, list: Array<{ a: ExpandedNode; place: Place }>): Promise<void> {
  const stack: Array<{ a: ExpandedNode; place: Place; inherited: string[] }> = [];
  for (let i = list.length - 1; i >= 0; i--)
    stack.push({ a: list[i].a, place: list[i].place, inherited: [] });
  let read = 0;
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (++read % TURN_ASSERTIONS === 0) await nextTurn();
    const criteria = readAssertion(w, next.a, next.place, next.inherited);
    if (!criteria) continue;
    const parts: ExpandedNode[] = [];
    for (const v of w.ix.values(next.a, T.hasPart)) {
      const part = w.ix.node(v);
      if (part) parts.push(part);
    }
    for (let j = parts.length - 1; j >= 0; j--)
      stack.push({ a: parts[j], place: { parent: next.place, step: j }, inherited: criteria });
  }
}

/** A person's name for the evaluation as a whole: its findings' evaluator, else its creator. */
function evaluatorOf(ix: NodeIndex, evaluation: ExpandedNode | undefined): string {
  if (!evaluation) return 'EARL import';
  const findings = ix.node(ix.first(evaluation, T.findings));
  const named = findings && ix.text(ix.first(findings, T.evaluator));
  const creator = ix.node(ix.first(evaluation, T.creator));
  return named || (creator && ix.text(ix.first(creator, T.name))) || 'WCAG-EM Report Tool';
}

export async function importWcagEm(expanded: ExpandedNode[]): Promise<ImportedAssessment> {
  const ix = nodeIndex(expanded);
  const evaluation = ix.evaluation();
  const target = levelOf(ix, evaluation);
  const level: AssessmentLevel = target === 'A' ? 'A' : 'AA';
  const w: Walk = {
    ix,
    sample: samplePages(ix, evaluation),
    level,
    evaluator: evaluatorOf(ix, evaluation),
    results: [],
    partial: new Map(),
    ignored: new Set(),
    errors: [],
  };
  const list = evaluation
    ? ix
        .values(evaluation, T.audit)
        .map((v) => ix.node(v))
        .filter((a) => a !== undefined)
        .map((a, i) => ({ a, place: { step: `#/auditSample/${i}` } }))
    : ix.assertions().map((a, i) => ({ a, place: { step: `#/@graph/${i}` } }));
  await readAssertions(w, list);
  if (w.errors.length > 0)
    throw domainErrors.invalid(w.errors, 'The evaluation names what WCAG does not have.');
  const results = [...dedupe(w.results), ...[...w.partial.values()].map(combined)];
  if (results.length === 0) {
    throw domainErrors.invalid(
      [
        {
          pointer: '#',
          detail: 'holds no result: every criterion is untested, or it has no EARL assertion at all',
        },
      ],
      'The file holds no result to import.',
    );
  }
  const findings = evaluation ? ix.node(ix.first(evaluation, T.findings)) : undefined;
  const title =
    (findings && ix.text(ix.first(findings, T.title))) ||
    (evaluation && ix.text(ix.first(evaluation, T.title))) ||
    (evaluation ? 'Imported WCAG-EM evaluation' : 'Imported EARL results');
  const ignored = [...w.ignored].map((c) =>
    c === '4.1.1'
      ? '4.1.1 Parsing is obsolete in WCAG 2.2 and counts for nothing'
      : `${c} is above Level ${level}`,
  );
  if (target === 'AAA')
    ignored.push('The evaluation targets Level AAA: only Level A and AA results were imported');
  return {
    format: evaluation ? 'wcag-em-report-tool' : 'earl',
    title: title.slice(0, 200),
    level,
    sample: w.sample.pages,
    results,
    ignored,
  };
}

/** One result per criterion and page: the last one read wins (a tool repeats none; a hand edit might). */
export function dedupe(results: ImportedResult[]): ImportedResult[] {
  const out = new Map<string, ImportedResult>();
  for (const r of results) out.set(`${r.criterion}\u0000${r.page ?? ''}`, r);
  return [...out.values()];
}
