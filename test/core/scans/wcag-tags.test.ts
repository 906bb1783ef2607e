import { criteriaFromAxeTags } from '../../../core/scans/wcag-tags.js';

describe('criteriaFromAxeTags', () => {
  test('turns wcagNNN tags into criterion ids and ignores level and other tags', () => {
    expect(
      criteriaFromAxeTags([
        'cat.color',
        'wcag2aa',
        'wcag143',
        'wcag21aa',
        'wcag1412',
        'wcag258',
        'wcag2a',
        'ACT',
        'EN-9.1.4.3',
      ]),
    ).toEqual(['1.4.3', '1.4.12', '2.5.8']);
    expect(criteriaFromAxeTags(['wcag412', 'wcag412', 'wcag111'])).toEqual(['4.1.2', '1.1.1']);
    expect(criteriaFromAxeTags(['best-practice'])).toEqual([]);
  });
});
