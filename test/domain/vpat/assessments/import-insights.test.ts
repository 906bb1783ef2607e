import fs from 'node:fs';
import {
  importInsights,
  looksLikeInsights,
} from '../../../../api/domain/vpat/assessments/import-insights.js';
import { DomainError } from '../../../../api/domain/errors.js';

const file = JSON.parse(
  fs.readFileSync('test/fixtures/assessments/insights-current.a11ywebassessment', 'utf8'),
) as { version: number; assessmentData: Record<string, unknown> };

describe('an Accessibility Insights for Web saved assessment', () => {
  test('every decided requirement maps to its criteria; one failing requirement fails all it bears on', () => {
    const a = importInsights(file);
    expect(a.sample).toEqual([{ url: 'https://shop.example/cart', source: 'chosen' }]);
    expect(a.results.map((r) => [r.criterion, r.outcome])).toEqual([
      ['1.1.1', 'passed'],
      // keyboardNavigation passed, noKeystrokeTiming undecided: neither failed nor all passed.
      ['2.1.1', 'cantTell'],
      // link-name failed and bears on 2.4.4 and 4.1.2; label passed but cannot outweigh it.
      ['2.4.4', 'failed'],
      ['3.1.1', 'passed'],
      ['4.1.2', 'failed'],
    ]);
    expect(a.results.find((r) => r.criterion === '4.1.2')?.notes).toBe(
      'automated-checks/link-name: failed; automated-checks/label: passed',
    );
    // document-title was never decided: no result for 2.4.2.
    expect(a.results.some((r) => r.criterion === '2.4.2')).toBe(false);
  });

  test('the earlier file (the store data without a version) reads the same', () => {
    expect(looksLikeInsights(file.assessmentData)).toBe(true);
    expect(importInsights(file.assessmentData).results).toEqual(importInsights(file).results);
  });

  test('a status the tool never writes is refused with its pointer', () => {
    const bad = structuredClone(file);
    (bad.assessmentData.assessments as Record<string, { testStepStatus: Record<string, unknown> }>)[
      'automated-checks'
    ].testStepStatus.label = { stepFinalResult: 7 };
    try {
      importInsights(bad);
      throw new Error('accepted');
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).errors?.map((e) => e.pointer)).toEqual([
        '#/assessmentData/assessments/automated-checks/testStepStatus/label/stepFinalResult',
      ]);
    }
  });
});
