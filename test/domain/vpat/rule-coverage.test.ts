import axe from 'axe-core';
import { buildRuleCoverage, rulesTesting } from '../../../api/domain/vpat/rule-coverage.js';
import { criteriaFromAxeTags } from '../../../core/scans/wcag-tags.js';
import { wcagCriteria } from '../../../api/domain/catalog/wcag.js';

describe('rule coverage', () => {
  test('criterion tags parse; level tags and best-practice do not', () => {
    expect(criteriaFromAxeTags(['wcag143'])).toEqual(['1.4.3']);
    expect(criteriaFromAxeTags(['wcag1412'])).toEqual(['1.4.12']);
    expect(criteriaFromAxeTags(['wcag258'])).toEqual(['2.5.8']);
    for (const tag of [
      'wcag2a',
      'wcag2aa',
      'wcag21aa',
      'wcag22aa',
      'wcag2aaa',
      'best-practice',
      'cat.color',
    ]) {
      expect(criteriaFromAxeTags([tag])).toEqual([]);
    }
  });

  test('builds both directions from a rules list', () => {
    const cov = buildRuleCoverage(
      [
        { ruleId: 'b-rule', tags: ['wcag2a', 'wcag111', 'wcag412'], helpUrl: 'https://example.test/b' },
        { ruleId: 'a-rule', tags: ['wcag111'] },
        { ruleId: 'bp', tags: ['best-practice'] },
      ],
      '9.9.9',
    );
    expect(rulesTesting(cov, '1.1.1')).toEqual(['a-rule', 'b-rule']);
    expect(rulesTesting(cov, '4.1.2')).toEqual(['b-rule']);
    expect(rulesTesting(cov, '1.3.3')).toEqual([]);
    expect(cov.byRule.get('bp')).toEqual([]);
    expect(cov.helpUrls.get('b-rule')).toBe('https://example.test/b');
    expect(cov.engineVersion).toBe('9.9.9');
  });

  test('from the installed axe-core: what is and is not testable', () => {
    const cov = buildRuleCoverage(axe.getRules(), axe.version);
    expect(rulesTesting(cov, '1.4.3')).toEqual(['color-contrast']);
    expect(rulesTesting(cov, '1.1.1')).toEqual(expect.arrayContaining(['image-alt', 'input-image-alt']));
    expect(rulesTesting(cov, '2.5.8')).toEqual(['target-size']);
    // No automated rule can test these: a report may never say Supports for them without a person.
    for (const id of ['1.3.3', '2.4.7', '3.3.1', '1.2.5']) expect(rulesTesting(cov, id)).toEqual([]);
    const aa = wcagCriteria('2.2', 'AA').filter((c) => !c.obsolete);
    const covered = aa.filter((c) => rulesTesting(cov, c.id).length > 0);
    // A minority of the Level A/AA criteria have any automated rule at all.
    expect(covered.length).toBeGreaterThan(15);
    expect(covered.length).toBeLessThan(aa.length / 2);
  });
});
