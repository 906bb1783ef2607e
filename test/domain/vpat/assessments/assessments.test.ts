import fs from 'node:fs';
import type { AssessmentResult } from '../../../../api/domain/vpat/assessments/assessment.js';
import type { DomainError } from '../../../../api/domain/errors.js';
import { criterionFromName } from '../../../../api/domain/vpat/assessments/criterion-names.js';
import { importWcagEm } from '../../../../api/domain/vpat/assessments/import-wcagem.js';
import type { ExpandedNode } from '../../../../api/domain/vpat/assessments/json-ld-terms.js';
import { expandEvaluation } from '../../../../api/services/assessments/json-ld.js';
import { procedureFor } from '../../../../core/catalog/procedures.js';
import { drawPages } from '../../../../api/domain/vpat/assessments/sample.js';
import { assessedCriteria, criterionVerdict } from '../../../../api/domain/vpat/assessments/verdict.js';

const result = (
  criterion: string,
  page: string | null,
  outcome: AssessmentResult['outcome'],
): AssessmentResult => ({
  criterion,
  page,
  outcome,
  notes: '',
  tester: 'T',
  version: 1,
  updatedAt: '2026-11-26T10:00:00.000Z',
});

describe('the page sample', () => {
  const pages = Array.from({ length: 40 }, (_, i) => `https://x.example/p${i}`);
  test('n distinct pages besides the chosen ones, the same for the same seed, independent of listing order', () => {
    const a = drawPages(pages, [pages[0]], 10, 7);
    expect(new Set(a).size).toBe(10);
    expect(a).not.toContain(pages[0]);
    expect(drawPages([...pages].reverse(), [pages[0]], 10, 7)).toEqual(a);
    expect(drawPages(pages, [pages[0]], 10, 8)).not.toEqual(a);
    expect(drawPages(pages, [], 100, 1)).toHaveLength(40);
  });
});

describe('a criterion over the sample', () => {
  const sample = ['a', 'b', 'c'];
  test('a page result wins over the whole-sample result; one failure fails; open pages leave it undecided', () => {
    expect(criterionVerdict(sample, [result('1.1.1', null, 'passed')]).kind).toBe('passed');
    expect(
      criterionVerdict(sample, [result('1.1.1', null, 'passed'), result('1.1.1', 'b', 'failed')]),
    ).toMatchObject({
      kind: 'failed',
      failedPages: ['b'],
      pages: 3,
    });
    expect(
      criterionVerdict(sample, [result('1.1.1', 'a', 'passed'), result('1.1.1', 'b', 'passed')]),
    ).toMatchObject({
      kind: 'undecided',
      open: 1,
    });
    expect(criterionVerdict(sample, [result('1.1.1', null, 'cantTell')]).kind).toBe('undecided');
    expect(criterionVerdict(sample, [result('1.1.1', null, 'inapplicable')]).kind).toBe('inapplicable');
    expect(
      criterionVerdict(sample, [result('1.1.1', null, 'inapplicable'), result('1.1.1', 'a', 'passed')]).kind,
    ).toBe('passed');
  });
});

describe('criteria as tools name them', () => {
  test('numbers, WCAG 2.0 fragment ids, 2.1/2.2 slugs, IRIs and titles', () => {
    expect(criterionFromName('WCAG20:text-equiv-all')).toBe('1.1.1');
    expect(criterionFromName('wcag20:navigation-mechanisms-title')).toBe('2.4.2');
    expect(criterionFromName('WCAG21:non-text-content')).toBe('1.1.1');
    expect(criterionFromName('http://www.w3.org/TR/WCAG22/#focus-not-obscured-minimum')).toBe('2.4.11');
    expect(criterionFromName('Contrast (Minimum)')).toBe('1.4.3');
    expect(criterionFromName('2.5.8')).toBe('2.5.8');
    expect(criterionFromName('WCAG21:no-such-thing')).toBeUndefined();
  });

  test('every Level A and AA criterion of WCAG 2.2 has a test procedure (55, without the obsolete 4.1.1)', () => {
    const ids = assessedCriteria('AA').map((c) => c.id);
    expect(ids).toHaveLength(55);
    expect(ids).not.toContain('4.1.1');
    expect(ids.filter((id) => !procedureFor(id))).toEqual([]);
  });
});

describe('a WCAG-EM Report Tool evaluation of the earlier export format', () => {
  const doc = JSON.parse(fs.readFileSync('test/fixtures/assessments/wcag-em-earlier.json', 'utf8')) as Record<
    string,
    unknown
  >;
  test('imports its sample, its WCAG 2.0 ids and every outcome; 4.1.1 is kept aside as obsolete', async () => {
    const a = await importWcagEm(await expandEvaluation(doc));
    expect(a.level).toBe('A');
    expect(a.title).toBe('Library site review');
    expect(a.sample).toEqual([
      { url: 'https://library.example/', source: 'chosen' },
      { url: 'https://library.example/search', source: 'chosen' },
      { url: 'https://library.example/book/42', source: 'random' },
    ]);
    const rows = a.results.map((r) => [r.criterion, r.page, r.outcome, r.notes]);
    expect(rows).toEqual([
      ['1.1.1', null, 'cantTell', ''],
      ['1.1.1', 'https://library.example/', 'passed', 'alt texts fine'],
      ['1.1.1', 'https://library.example/search', 'failed', 'search icon unnamed'],
      ['1.1.1', 'https://library.example/book/42', 'inapplicable', 'no images'],
      ['2.4.2', null, 'passed', 'titles name each page'],
      ['2.1.1', null, 'untested', 'to do next week'],
    ]);
    expect(a.results.every((r) => r.tester === 'Dana Auditor')).toBe(true);
    // 1.4.3 is Level AA (above this Level A evaluation); 4.1.1 is obsolete.
    expect(a.ignored).toEqual(
      expect.arrayContaining([expect.stringMatching(/^4\.1\.1/), expect.stringMatching(/^1\.4\.3/)]),
    );
  });
});

describe('a WCAG-EM evaluation read without recursion', () => {
  const EARL = 'http://www.w3.org/ns/earl#';
  const WCAGEM = 'http://www.w3.org/TR/WCAG-EM/#';
  const DCT = 'http://purl.org/dc/terms/';
  /** Twice as deep as a recursive reader could go on Node's default stack (about 10,000 calls). */
  const DEPTH = 20_000;
  test('a hasPart chain far deeper than the call stack is read in document order, its errors pointed at', async () => {
    // Expanded JSON-LD, as the import reads it (full IRIs, every value in an array).
    const assertion = (outcome: string, test = 'http://www.w3.org/TR/WCAG22/#non-text-content') => ({
      '@type': [`${EARL}Assertion`],
      [`${EARL}test`]: [{ '@id': test }],
      [`${EARL}subject`]: [{ '@id': '_:page_1' }],
      [`${EARL}assertedBy`]: [{ '@value': 'Ann' }],
      [`${EARL}result`]: [
        {
          [`${EARL}outcome`]: [{ '@id': `${EARL}${outcome}` }],
          [`${DCT}description`]: [{ '@value': outcome }],
        },
      ],
    });
    const doc = (innermost: ExpandedNode): ExpandedNode[] => {
      let chain = innermost;
      for (let i = 0; i < DEPTH; i++) chain = { ...assertion('failed'), [`${DCT}hasPart`]: [chain] };
      return [
        {
          [`${WCAGEM}step3`]: [
            {
              [`${WCAGEM}step3a`]: [
                { '@id': '_:page_1', [`${DCT}source`]: [{ '@id': 'https://shop.example/' }] },
              ],
            },
          ],
          [`${WCAGEM}step4`]: [chain],
        },
      ];
    };
    // The last one read wins: the innermost part, read last.
    expect((await importWcagEm(doc(assertion('passed')))).results).toEqual([
      {
        criterion: '1.1.1',
        page: 'https://shop.example/',
        outcome: 'passed',
        notes: 'passed',
        tester: 'Ann',
      },
    ]);
    let refused: unknown;
    try {
      await importWcagEm(doc(assertion('passed', 'http://www.w3.org/TR/WCAG22/#no-such')));
    } catch (err) {
      refused = err;
    }
    expect((refused as DomainError).errors?.map((e) => e.pointer)).toEqual([
      `#/auditSample/0${'/hasPart/0'.repeat(DEPTH)}/test`,
    ]);
  }, 120_000);
});
