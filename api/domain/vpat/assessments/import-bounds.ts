import { WCAG_CRITERIA } from '../../../../core/catalog/wcag-criteria.data.js';
import { LimitError } from '../../access/limits.js';
import { domainErrors } from '../../errors.js';
import { MAX_PAGE_URL, MAX_SAMPLE, type SamplePage } from './assessment.js';

/**
 * What an imported file may hold: no more than creating the same assessment could make. The counts are
 * taken on the parsed JSON before any reader maps it (and stop at the first step past a limit), so a
 * file far over a limit costs its counting, not its mapping, and the bounds hold whatever reads the
 * formats. Pure.
 */

/** JSON nesting an import reads; a WCAG-EM Report Tool evaluation is about ten deep. */
export const MAX_IMPORT_DEPTH = 64;

/** One result per WCAG 2.x criterion for each page of the largest sample and one for the whole sample. */
export const MAX_IMPORT_RESULTS = WCAG_CRITERIA.length * (MAX_SAMPLE + 1);

/**
 * Values of an imported file's JSON (each object and array, each element or member after a first),
 * counted before it is parsed: a WCAG-EM Report Tool file spends about eighteen on each result.
 */
export const MAX_IMPORT_VALUES = 20 * MAX_IMPORT_RESULTS;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const pick = (o: Json, ...keys: string[]): unknown => keys.map((k) => o[k]).find((v) => v !== undefined);

export function importTooDeep(): LimitError {
  return new LimitError(
    'json_depth_per_import',
    MAX_IMPORT_DEPTH,
    422,
    `The file nests deeper than the limit json_depth_per_import (${MAX_IMPORT_DEPTH}).`,
  );
}

export function importTooManyValues(): LimitError {
  return new LimitError(
    'json_values_per_import',
    MAX_IMPORT_VALUES,
    422,
    `The file holds more values than the limit json_values_per_import (${MAX_IMPORT_VALUES}).`,
  );
}

function over(limit: 'pages_per_assessment' | 'results_per_import', value: number, what: string) {
  return new LimitError(limit, value, 422, `The file passes the limit ${limit} (${value}): ${what}.`);
}

/** The pages a WCAG-EM evaluation lists in its sample (current and earlier export), before de-duplication. */
function listedPages(doc: Json): number {
  const select = pick(doc, 'selectSample', 'wcagem:step3');
  const from = isObject(select) ? select : doc;
  let n = 0;
  for (const key of ['structuredSample', 'wcagem:step3a', 'randomSample', 'wcagem:step3b']) {
    const raw = from[key];
    n += (isObject(raw) && raw.webpage !== undefined ? asList(raw.webpage) : asList(raw)).length;
  }
  return n;
}

/** The assertions of a WCAG-EM evaluation, parts included, counted without recursion up to `max` + 1. */
function countAssertions(doc: Json, max: number): number {
  const stack = [asList(pick(doc, 'auditSample', 'auditResult', 'wcagem:step4'))];
  let n = 0;
  for (let list = stack.pop(); list; list = stack.pop()) {
    for (const a of list) {
      if (++n > max) return n;
      if (isObject(a) && a.hasPart !== undefined) stack.push(asList(a.hasPart));
    }
  }
  return n;
}

/** The requirement statuses of an Accessibility Insights file, counted up to `max` + 1. */
function countStatuses(doc: Json, max: number): number {
  const data = isObject(doc.assessmentData) ? doc.assessmentData : doc;
  let n = 0;
  for (const value of isObject(data.assessments) ? Object.values(data.assessments) : []) {
    if (isObject(value) && isObject(value.testStepStatus)) n += Object.keys(value.testStepStatus).length;
    if (n > max) return n;
  }
  return n;
}

/** The file and, for JSON-LD with a top-level `@graph`, each node of the graph (where an evaluation may be). */
const partsOf = (doc: Json): Json[] => [
  doc,
  ...(Array.isArray(doc['@graph']) ? (doc['@graph'] as unknown[]).filter(isObject) : []),
];

/** Refuses (422, naming the limit) a file whose sample or results pass what creation allows. */
export function checkImportCounts(doc: unknown): void {
  if (!isObject(doc)) return;
  const parts = partsOf(doc);
  const pages = parts.reduce((n, p) => n + listedPages(p), 0);
  if (pages > MAX_SAMPLE) throw over('pages_per_assessment', MAX_SAMPLE, `the sample lists ${pages} pages`);
  // The graph's own nodes count too: another tool's assertions may be listed there one by one.
  const graphNodes = parts.length - 1;
  const assertions = parts.reduce((n, p) => n + countAssertions(p, MAX_IMPORT_RESULTS), graphNodes);
  const results = Math.max(assertions, countStatuses(doc, MAX_IMPORT_RESULTS));
  if (results > MAX_IMPORT_RESULTS)
    throw over('results_per_import', MAX_IMPORT_RESULTS, `it holds more than ${MAX_IMPORT_RESULTS} results`);
}

/**
 * Term definitions a file's JSON-LD contexts may hold in all (the Report Tool's own context has about 80):
 * a context is processed wherever it applies, so a file of many or huge contexts costs far more than its
 * size. Named by `json_ld_terms_per_import`.
 */
export const MAX_CONTEXT_TERMS = 1_000;

/** Refuses (422, naming the limit) a file whose contexts define more terms than MAX_CONTEXT_TERMS. */
export function checkContextTerms(doc: unknown): void {
  let terms = 0;
  const stack: unknown[] = [doc];
  for (let x = stack.pop(); x !== undefined; x = stack.pop()) {
    if (Array.isArray(x)) stack.push(...(x as unknown[]));
    else if (isObject(x)) {
      for (const [key, value] of Object.entries(x)) {
        if (key === '@context') terms += countTerms(value);
        stack.push(value);
      }
    }
    if (terms > MAX_CONTEXT_TERMS) {
      throw new LimitError(
        'json_ld_terms_per_import',
        MAX_CONTEXT_TERMS,
        422,
        `The file's JSON-LD contexts define more terms than the limit json_ld_terms_per_import (${MAX_CONTEXT_TERMS}).`,
      );
    }
  }
}

/** The term definitions of one context value (an object's keys, an array's objects' keys). */
function countTerms(context: unknown): number {
  return asList(context).reduce<number>((n, c) => n + (isObject(c) ? Object.keys(c).length : 0), 0);
}

/** Refuses (422) a sampled page URL longer than creating an assessment accepts, rather than storing it. */
export function checkSampleUrls(sample: readonly SamplePage[]): void {
  const i = sample.findIndex((p) => p.url.length > MAX_PAGE_URL);
  if (i === -1) return;
  throw domainErrors.invalid(
    [
      {
        pointer: '#',
        detail: `page ${i + 1} of the sample: its URL is longer than ${MAX_PAGE_URL} characters`,
      },
    ],
    'A page URL of the sample is longer than an assessment holds.',
  );
}
