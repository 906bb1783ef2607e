import { domainErrors, type FieldError } from '../../errors.js';
import { nextTurn } from '../../turns.js';
import { WCAG_CRITERIA } from '../../catalog/wcag-criteria.data.js';
import { levelIncludes } from '../../catalog/wcag.js';
import {
  OUTCOMES,
  type AssessmentLevel,
  type Outcome,
  type ResultState,
  type SamplePage,
} from './assessment.js';
import { criterionFromName } from './criterion-names.js';

/**
 * Reads an evaluation saved by W3C's WCAG-EM Report Tool: the current export (steps under `defineScope`,
 * `selectSample`, `auditSample`, `reportFindings`) and the earlier one (`evaluationScope`,
 * `structuredSample.webpage`, `auditResult`, tests under `testRequirement`). Compacted JSON-LD is read by
 * its terms; the keys of both contexts are accepted. Pure (it takes turns between batches of assertions).
 */

export interface ImportedResult extends ResultState {
  criterion: string;
  page: string | null;
}

export interface ImportedAssessment {
  format: 'wcag-em-report-tool' | 'accessibility-insights';
  title: string;
  level: AssessmentLevel;
  sample: SamplePage[];
  results: ImportedResult[];
  /** What was read but counts for nothing (4.1.1, criteria above the target level). */
  ignored: string[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const idOf = (v: unknown): string | undefined =>
  str(v) ?? (isObject(v) ? (str(v.id) ?? str(v['@id'])) : undefined);
const pick = (o: Json | undefined, ...keys: string[]): unknown => {
  for (const k of keys) if (o && o[k] !== undefined) return o[k];
  return undefined;
};

export function looksLikeWcagEm(doc: unknown): doc is Json {
  return (
    isObject(doc) &&
    doc['@context'] !== undefined &&
    pick(doc, 'auditSample', 'wcagem:step4', 'auditResult', 'step4') !== undefined
  );
}

function levelOf(doc: Json): AssessmentLevel | 'AAA' {
  const scope = (pick(doc, 'defineScope', 'wcagem:step1', 'evaluationScope') ?? {}) as Json;
  const target = idOf(pick(scope, 'conformanceTarget', 'wcagem:step1b', 'step1b')) ?? 'AA';
  const m = /(AAA|AA|A)(?:-Conformance)?$/i.exec(target);
  return (m?.[1].toUpperCase() ?? 'AA') as AssessmentLevel | 'AAA';
}

function samplePages(doc: Json): { sample: SamplePage[]; byId: Map<string, string> } {
  const select = (pick(doc, 'selectSample', 'wcagem:step3') ?? doc) as Json;
  const sample: SamplePage[] = [];
  const seen = new Set<string>();
  const byId = new Map<string, string>();
  for (const [key, source] of [
    ['structuredSample', 'chosen'],
    ['randomSample', 'random'],
  ] as const) {
    const raw = pick(select, key, key === 'structuredSample' ? 'wcagem:step3a' : 'wcagem:step3b');
    // The earlier export nests the pages under `webpage`.
    const list = isObject(raw) && raw.webpage !== undefined ? asList(raw.webpage) : asList(raw);
    for (const p of list.filter(isObject)) {
      const url = str(p.source) ?? str(p.description) ?? str(p.title) ?? str(p.handle);
      if (!url || seen.has(url)) continue;
      seen.add(url);
      sample.push({ url, source });
      const id = idOf(p);
      if (id) byId.set(id, url);
    }
  }
  return { sample, byId };
}

function outcomeOf(result: unknown): Outcome | undefined {
  const id = idOf(isObject(result) ? result.outcome : undefined) ?? 'earl:untested';
  const word = id.replace(/^.*[#:]/, '');
  return (OUTCOMES as readonly string[]).includes(word) ? (word as Outcome) : undefined;
}

function testerOf(a: Json, fallback: string): string {
  const by = a.assertedBy;
  const name =
    str(by) ?? (isObject(by) ? (str(by.title) ?? str(by.name) ?? str(by['foaf:name'])) : undefined);
  return (name && !name.startsWith('_:') ? name : fallback).slice(0, 200);
}

interface Walk {
  byId: Map<string, string>;
  level: AssessmentLevel;
  evaluator: string;
  results: ImportedResult[];
  ignored: Set<string>;
  errors: FieldError[];
}

/** Where an assertion is in the file: its parent's place and its own step, made a pointer only when needed. */
interface Place {
  parent?: Place;
  step: string;
}

const pointerOf = (p: Place): string => {
  const steps: string[] = [];
  for (let at: Place | undefined = p; at; at = at.parent) steps.push(at.step);
  return steps.reverse().join('/');
};

/** Reads one assertion; answers its test (which its parts inherit), or undefined when its parts are not read. */
function readAssertion(a: Json, place: Place, inherited: string | undefined, w: Walk): string | undefined {
  const testId = idOf(pick(a, 'test', 'testRequirement', 'testcase')) ?? inherited;
  const criterion = testId ? criterionFromName(testId) : undefined;
  if (!criterion) {
    w.errors.push({
      pointer: `${pointerOf(place)}/test`,
      detail: `"${testId ?? ''}" names no WCAG 2.x success criterion`,
    });
    return undefined;
  }
  const outcome = outcomeOf(a.result);
  if (!outcome) {
    w.errors.push({ pointer: `${pointerOf(place)}/result/outcome`, detail: 'is not an EARL outcome' });
    return undefined;
  }
  const notes = (isObject(a.result) ? (str(a.result.description) ?? '') : '').slice(0, 5000);
  const data = WCAG_CRITERIA.find((c) => c.id === criterion);
  const counted = data && !data.removedIn && levelIncludes(w.level, data.level);
  if (!counted) w.ignored.add(criterion);
  // An untouched criterion (untested, no notes, nobody named) is the tool's default, not a result.
  const untouched = outcome === 'untested' && !notes && a.assertedBy === undefined;
  if (counted && !untouched) {
    const tester = testerOf(a, w.evaluator);
    for (const subject of asList(a.subject).map(idOf)) {
      const page = subject ? w.byId.get(subject) : undefined;
      w.results.push({ criterion, page: page ?? null, outcome, notes, tester });
    }
  }
  return testId;
}

/** Assertions read between two turns: a large file never holds the event loop for long. */
const TURN_ASSERTIONS = 1000;

/**
 * The assertions and their `hasPart` parts in document order, depth first with a stack of its own: a
 * chain of parts costs memory, not the call stack.
 */
async function readAssertions(list: unknown[], key: string, w: Walk): Promise<void> {
  const stack: Array<{ a: Json; place: Place; inherited?: string }> = [];
  const push = (items: unknown[], parent: Place | undefined, prefix: string, inherited?: string) => {
    for (let i = items.length - 1; i >= 0; i--) {
      const a = items[i];
      if (isObject(a)) stack.push({ a, place: { parent, step: `${prefix}${i}` }, inherited });
    }
  };
  push(list, undefined, `#/${key}/`);
  let read = 0;
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (++read % TURN_ASSERTIONS === 0) await nextTurn();
    const testId = readAssertion(next.a, next.place, next.inherited, w);
    if (testId !== undefined) push(asList(next.a.hasPart), next.place, 'hasPart/', testId);
  }
}

export async function importWcagEm(doc: Json): Promise<ImportedAssessment> {
  const target = levelOf(doc);
  const level: AssessmentLevel = target === 'A' ? 'A' : 'AA';
  const { sample, byId } = samplePages(doc);
  const findings = (pick(doc, 'reportFindings', 'wcagem:step5') ?? {}) as Json;
  // The earlier export names the evaluator as `creator` ({id, title}); assertions point at its id.
  const creator = isObject(doc.creator) ? (str(doc.creator.title) ?? str(doc.creator.name)) : undefined;
  const evaluator = str(findings.evaluator) || creator || 'WCAG-EM Report Tool';
  const w: Walk = { byId, level, evaluator, results: [], ignored: new Set(), errors: [] };
  const key =
    doc.auditSample !== undefined
      ? 'auditSample'
      : doc.auditResult !== undefined
        ? 'auditResult'
        : 'wcagem:step4';
  await readAssertions(asList(pick(doc, 'auditSample', 'auditResult', 'wcagem:step4')), key, w);
  if (w.errors.length > 0)
    throw domainErrors.invalid(w.errors, 'The evaluation names what WCAG does not have.');
  const title = str(findings.title) || str(doc.title) || 'Imported WCAG-EM evaluation';
  const ignored = [...w.ignored].map((c) =>
    c === '4.1.1'
      ? '4.1.1 Parsing is obsolete in WCAG 2.2 and counts for nothing'
      : `${c} is above Level ${level}`,
  );
  if (target === 'AAA')
    ignored.push('The evaluation targets Level AAA: only Level A and AA results were imported');
  return {
    format: 'wcag-em-report-tool',
    title: title.slice(0, 200),
    level,
    sample,
    results: dedupe(w.results),
    ignored,
  };
}

/** One result per criterion and page: the last one read wins (a tool repeats none; a hand edit might). */
export function dedupe(results: ImportedResult[]): ImportedResult[] {
  const out = new Map<string, ImportedResult>();
  for (const r of results) out.set(`${r.criterion}\u0000${r.page ?? ''}`, r);
  return [...out.values()];
}
