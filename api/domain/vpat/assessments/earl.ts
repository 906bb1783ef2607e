import { assessedCriteria } from './verdict.js';
import { slugOf } from './criterion-names.js';
import type { Assessment, AssessmentResult, Outcome } from './assessment.js';

/**
 * An assessment as EARL in JSON-LD, in the shape W3C's WCAG-EM Report Tool saves and opens: its
 * `@context` (WCAG-EM steps as `wcagem:stepN`, EARL, Dublin Core, schema.org), the sample as
 * `selectSample`, and in `auditSample` one `earl:Assertion` per criterion about the website, with one
 * part per sampled page. Pure.
 */

export const EARL_CONTEXT = {
  reporter: 'https://github.com/w3c/wcag-em-report-tool/',
  wcagem: 'http://www.w3.org/TR/WCAG-EM/#',
  Evaluation: 'wcagem:procedure',
  defineScope: 'wcagem:step1',
  scope: 'wcagem:step1a',
  step1b: { '@id': 'wcagem:step1b', '@type': '@id' },
  conformanceTarget: 'step1b',
  accessibilitySupportBaseline: 'wcagem:step1c',
  additionalEvaluationRequirements: 'wcagem:step1d',
  exploreTarget: 'wcagem:step2',
  essentialFunctionality: 'wcagem:step2b',
  pageTypeVariety: 'wcagem:step2c',
  technologiesReliedUpon: 'wcagem:step2d',
  selectSample: 'wcagem:step3',
  structuredSample: 'wcagem:step3a',
  randomSample: 'wcagem:step3b',
  Website: 'wcagem:website',
  Webpage: 'wcagem:webpage',
  auditSample: 'wcagem:step4',
  reportFindings: 'wcagem:step5',
  documentSteps: 'wcagem:step5a',
  commissioner: 'wcagem:commissioner',
  evaluator: 'wcagem:evaluator',
  evaluationSpecifics: 'wcagem:step5b',
  WCAG: 'http://www.w3.org/TR/WCAG/#',
  WCAG20: 'http://www.w3.org/TR/WCAG20/#',
  WCAG21: 'http://www.w3.org/TR/WCAG21/#',
  WCAG22: 'http://www.w3.org/TR/WCAG22/#',
  WAI: 'http://www.w3.org/WAI/',
  A: 'WAI:WCAG2A-Conformance',
  AA: 'WAI:WCAG2AA-Conformance',
  AAA: 'WAI:WCAG2AAA-Conformance',
  wcagVersion: 'WAI:standards-guidelines/wcag/#versions',
  earl: 'http://www.w3.org/ns/earl#',
  Assertion: 'earl:Assertion',
  TestMode: 'earl:TestMode',
  TestCriterion: 'earl:TestCriterion',
  TestCase: 'earl:TestCase',
  TestRequirement: 'earl:TestRequirement',
  TestSubject: 'earl:TestSubject',
  TestResult: 'earl:TestResult',
  OutcomeValue: 'earl:OutcomeValue',
  Pass: 'earl:Pass',
  Fail: 'earl:Fail',
  CannotTell: 'earl:CannotTell',
  NotApplicable: 'earl:NotApplicable',
  NotTested: 'earl:NotTested',
  assertedBy: 'earl:assertedBy',
  mode: 'earl:mode',
  result: 'earl:result',
  subject: 'earl:subject',
  test: 'earl:test',
  outcome: 'earl:outcome',
  dcterms: 'http://purl.org/dc/terms/',
  title: 'dcterms:title',
  description: 'dcterms:description',
  summary: 'dcterms:summary',
  date: { '@id': 'dcterms:date', '@type': 'W3CDTF' },
  hasPart: 'dcterms:hasPart',
  isPartOf: 'dcterms:isPartOf',
  source: { '@id': 'dcterms:source', '@type': '@id' },
  schema: 'http://schema.org/',
  WebSite: 'schema:WebSite',
  WebPage: 'schema:WebPage',
  W3CDTF: 'http://www.w3.org/TR/NOTE-datetime',
  id: '@id',
  type: '@type',
  language: '@language',
} as const;

/** EARL's outcome values with the class the WCAG-EM Report Tool gives each. */
export const OUTCOME_TYPES: Record<Outcome, string> = {
  passed: 'Pass',
  failed: 'Fail',
  cantTell: 'CannotTell',
  inapplicable: 'NotApplicable',
  untested: 'NotTested',
};

const WEBSITE = '_:website';
const pageId = (i: number) => `_:page_${i + 1}`;

function assertion(
  criterion: string,
  subject: string,
  r: AssessmentResult | undefined,
  fallbackDate: string,
): Record<string, unknown> {
  const outcome = r?.outcome ?? 'untested';
  return {
    type: 'Assertion',
    date: r?.updatedAt ?? fallbackDate,
    mode: 'earl:manual',
    ...(r ? { assertedBy: { id: `_:assertor_${encodeURIComponent(r.tester)}`, title: r.tester } } : {}),
    subject: { id: subject },
    test: { id: `WCAG22:${slugOf(criterion)}`, type: ['TestCriterion', 'TestRequirement'] },
    result: {
      type: 'TestResult',
      date: r?.updatedAt ?? fallbackDate,
      description: r?.notes ?? '',
      outcome: { id: `earl:${outcome}`, type: ['OutcomeValue', OUTCOME_TYPES[outcome]] },
    },
  };
}

export function toEarl(a: Assessment, siteName: string, results: readonly AssessmentResult[]): object {
  const pages = a.sample.map((p, i) => ({
    id: pageId(i),
    type: ['TestSubject', 'WebPage'],
    title: p.url,
    description: p.url,
    source: p.url,
  }));
  const index = new Map(a.sample.map((p, i) => [p.url, i]));
  const key = (c: string, page: string | null) => `${c}\u0000${page ?? ''}`;
  const byKey = new Map(results.map((r) => [key(r.criterion, r.page), r]));
  const auditSample = assessedCriteria(a.level).map((c) => ({
    ...assertion(c.id, WEBSITE, byKey.get(key(c.id, null)), a.updatedAt),
    hasPart: a.sample.flatMap((p) => {
      const r = byKey.get(key(c.id, p.url));
      return r ? [assertion(c.id, pageId(index.get(p.url) ?? 0), r, a.updatedAt)] : [];
    }),
  }));
  return {
    '@context': EARL_CONTEXT,
    type: 'Evaluation',
    language: 'en',
    defineScope: {
      id: '_:defineScope',
      scope: { id: WEBSITE, type: ['TestSubject', 'WebSite'], title: siteName, description: '' },
      wcagVersion: '2.2',
      conformanceTarget: a.level,
    },
    exploreTarget: { id: '_:exploreTarget', technologiesReliedUpon: [] },
    selectSample: {
      id: '_:selectSample',
      structuredSample: pages.filter((_, i) => a.sample[i].source === 'chosen'),
      randomSample: pages.filter((_, i) => a.sample[i].source === 'random'),
    },
    auditSample,
    reportFindings: {
      title: a.title,
      date: a.updatedAt,
      evaluator: [...new Set(results.map((r) => r.tester))].join(', '),
      summary: '',
      evaluationSpecifics: `a11y-gate assessment ${a.id}${a.seed === null ? '' : ` (random sample seed ${a.seed})`}`,
    },
  };
}
