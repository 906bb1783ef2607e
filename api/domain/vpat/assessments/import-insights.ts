import { INSIGHTS_REQUIREMENTS } from '../../catalog/insights-requirements.data.js';
import { domainErrors, type FieldError } from '../../errors.js';
import type { Outcome } from './assessment.js';
import { assessedCriteria } from './verdict.js';
import type { ImportedResult } from './assessment.js';
import type { ImportedAssessment } from './import-wcagem.js';

/**
 * Reads an assessment saved by Accessibility Insights for Web (`.a11ywebassessment`): the current file
 * (`{version, assessmentData}`) and the earlier one (the store data alone). Each requirement's final
 * status (`testStepStatus[requirement].stepFinalResult`: 0 pass, 1 unknown, 2 fail) maps to the criteria
 * it bears on (catalog/insights-requirements.data.ts); a criterion several requirements bear on fails if
 * any failed, passes if all that were decided passed, and is cannot-tell otherwise. The file covers the one
 * page it was made on. Pure.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const TESTER = 'Accessibility Insights for Web';
const STATUS: Record<number, 'passed' | 'unknown' | 'failed'> = { 0: 'passed', 1: 'unknown', 2: 'failed' };

const criteriaOf = new Map(INSIGHTS_REQUIREMENTS.map(([a, r, c]) => [`${a}/${r}`, c]));

function storeData(doc: unknown): { data: Json; prefix: string } | undefined {
  if (!isObject(doc)) return undefined;
  if (typeof doc.version === 'number' && isObject(doc.assessmentData)) {
    return isObject(doc.assessmentData.assessments)
      ? { data: doc.assessmentData, prefix: '#/assessmentData' }
      : undefined;
  }
  return isObject(doc.assessments) && isObject(doc.persistedTabInfo) ? { data: doc, prefix: '#' } : undefined;
}

export function looksLikeInsights(doc: unknown): boolean {
  return storeData(doc) !== undefined;
}

interface Decision {
  requirement: string;
  status: 'passed' | 'unknown' | 'failed';
}

function readStatuses(data: Json, prefix: string, errors: FieldError[], ignored: Set<string>) {
  const byCriterion = new Map<string, Decision[]>();
  for (const [assessment, value] of Object.entries(data.assessments as Json)) {
    const steps = isObject(value) && isObject(value.testStepStatus) ? value.testStepStatus : {};
    for (const [requirement, step] of Object.entries(steps)) {
      const pointer = `${prefix}/assessments/${assessment}/testStepStatus/${requirement}/stepFinalResult`;
      const status =
        isObject(step) && typeof step.stepFinalResult === 'number' ? STATUS[step.stepFinalResult] : undefined;
      if (!status) {
        errors.push({
          pointer,
          detail: 'is not a status of Accessibility Insights (0 pass, 1 unknown, 2 fail)',
        });
        continue;
      }
      const criteria = criteriaOf.get(`${assessment}/${requirement}`);
      if (!criteria || criteria.length === 0) {
        if (status !== 'unknown')
          ignored.add(
            criteria
              ? `${assessment}/${requirement} has no WCAG guidance link`
              : `${assessment}/${requirement} bears on no criterion this service knows`,
          );
        continue;
      }
      for (const c of criteria) {
        const list = byCriterion.get(c) ?? [];
        list.push({ requirement: `${assessment}/${requirement}`, status });
        byCriterion.set(c, list);
      }
    }
  }
  return byCriterion;
}

function outcomeOf(decisions: readonly Decision[]): Outcome | undefined {
  if (decisions.some((d) => d.status === 'failed')) return 'failed';
  const decided = decisions.filter((d) => d.status !== 'unknown');
  if (decided.length === 0) return undefined;
  return decided.length === decisions.length ? 'passed' : 'cantTell';
}

export function importInsights(doc: unknown): ImportedAssessment {
  const found = storeData(doc);
  if (!found)
    throw domainErrors.invalid([{ pointer: '#', detail: 'is not an Accessibility Insights assessment' }]);
  const { data, prefix } = found;
  const tab = isObject(data.persistedTabInfo) ? data.persistedTabInfo : {};
  const page = typeof tab.url === 'string' && tab.url ? tab.url : undefined;
  const errors: FieldError[] = [];
  if (!page) errors.push({ pointer: `${prefix}/persistedTabInfo/url`, detail: 'names no page' });
  const ignored = new Set<string>();
  const byCriterion = readStatuses(data, prefix, errors, ignored);
  if (errors.length > 0 || !page)
    throw domainErrors.invalid(errors, 'The assessment file is not as Accessibility Insights writes it.');
  const assessed = new Set(assessedCriteria('AA').map((c) => c.id));
  const results: ImportedResult[] = [];
  for (const [criterion, decisions] of byCriterion) {
    const outcome = outcomeOf(decisions);
    if (!outcome) continue;
    if (!assessed.has(criterion)) {
      ignored.add(
        criterion === '4.1.1'
          ? '4.1.1 Parsing is obsolete in WCAG 2.2 and counts for nothing'
          : `${criterion} is not a Level A or AA criterion of WCAG 2.2`,
      );
      continue;
    }
    const notes = decisions.map((d) => `${d.requirement}: ${d.status}`).join('; ');
    results.push({ criterion, page, outcome, notes, tester: TESTER });
  }
  const title = typeof tab.title === 'string' && tab.title ? tab.title : page;
  return {
    format: 'accessibility-insights',
    title: `Accessibility Insights assessment of ${title}`.slice(0, 200),
    level: 'AA',
    sample: [{ url: page, source: 'chosen' }],
    results: results.sort((a, b) => a.criterion.localeCompare(b.criterion, 'en', { numeric: true })),
    ignored: [...ignored],
  };
}
